import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { pagingRefusal } from "../../domain/ledger.ts";
import { ensureWallet, findWallet } from "../../repos/credit-balances.ts";
import { pageOfLedger } from "../../repos/credit-transactions.ts";
import { pageWindow, toPage } from "../../repos/paging.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { refused, toBalanceResult, toTransactionResult } from "./common.ts";

type Handlers = CreditServiceHandlers<RpcContext>;

/** The caller's wallet, created at zero on first read (one idempotent insert; the method opens no transaction). */
export const getBalance: Handlers["getBalance"] = async (ctx, { user_id }) => {
  await ensureWallet(ctx.em, user_id, ctx.now());
  const wallet = await findWallet(ctx.em, user_id);
  if (!wallet) throw new Error(`wallet of ${user_id} missing after ensureWallet`);
  return toBalanceResult(wallet);
};

/** The caller's ledger, newest first, page-number paging (API.md "Results"). */
export const listTransactions: Handlers["listTransactions"] = async (ctx, { user_id, page, page_size }) => {
  const bad = pagingRefusal(page, page_size);
  if (bad) throw refused(bad);
  const window = pageWindow({ page, page_size });
  const { rows, total } = await pageOfLedger(ctx.em, user_id, window.pageSize, window.offset);
  return toPage(rows.map(toTransactionResult), total, window);
};
