import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { ledgerAmount, referenceType } from "../../domain/ledger.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { debitWallet, findWallet } from "../../repos/credit-balances.ts";
import { insertLedgerRow } from "../../repos/credit-transactions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { afterDebit, creditError, ledgerRow, refused, toTransactionResult } from "./common.ts";

type Handlers = CreditServiceHandlers<RpcContext>;

/** InsufficientFunds with the balance the caller holds (read after the refused conditional update). */
async function insufficient(ctx: RpcContext, userId: string, amount: number): Promise<Error> {
  const wallet = await findWallet(ctx.em, userId);
  return creditError("InsufficientFunds", "the balance is below the amount", {
    balance: wallet?.balance ?? 0,
    amount,
  });
}

/** The caller's own wallet (caller-bound): one conditional update (never below zero) and a `deduction` row. */
export const deduct: Handlers["deduct"] = async (ctx, params) => {
  const amount = ledgerAmount(params.amount);
  if (isRefusal(amount)) throw refused(amount);
  const refType = referenceType(params.reference_type);
  if (isRefusal(refType)) throw refused(refType);
  const balanceAfter = await debitWallet(ctx.em, params.user_id, amount, ctx.now());
  if (balanceAfter === null) throw await insufficient(ctx, params.user_id, params.amount);
  const row = ledgerRow(
    ctx,
    "deduction",
    {
      userId: params.user_id,
      amount,
      description: params.description,
      referenceType: refType,
      referenceId: params.reference_id,
    },
    balanceAfter,
  );
  await insertLedgerRow(ctx.em, row);
  await afterDebit(ctx, params.user_id, balanceAfter);
  return toTransactionResult(row);
};

export { insufficient };
