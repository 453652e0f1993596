import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { aiRepeatRefusal, ledgerAmount } from "../../domain/ledger.ts";
import { type Cents, fromCents } from "../../domain/money.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { debitWallet } from "../../repos/credit-balances.ts";
import { claimExternalCall, findByExternalCallId, setBalanceAfter } from "../../repos/credit-transactions.ts";
import { unaudited } from "../../rpc/audit-marks.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { moveOut } from "../shared/money-out.ts";
import { afterDebit, ledgerRow, refused, toTransactionResult } from "./common.ts";
import { insufficient } from "./deduct.ts";

type Handlers = CreditServiceHandlers<RpcContext>;

/** The first row billed under this external_call_id, if it matches the repeat (else AlreadyExists). */
async function firstDebit(ctx: RpcContext, externalCallId: string, userId: string, amount: Cents) {
  const first = await findByExternalCallId(ctx.em, externalCallId);
  if (!first) return null;
  const bad = aiRepeatRefusal(first, userId, amount);
  if (bad) throw refused(bad);
  return toTransactionResult(first);
}

/**
 * Bills one AI query, in the billed user's own session (x-auth session, user_id caller-bound). The ledger row claims the external_call_id first (insert ... on
 * conflict do nothing): a concurrent repeat waits on the unique index and then answers the first row; the
 * conditional debit follows, and a refusal rolls the claim back with it. Audited by the dispatcher, once per
 * external call id (a repeat is `unaudited`).
 */
export const debitAiQuery: Handlers["debitAiQuery"] = async (ctx, params) => {
  const amount = ledgerAmount(params.amount);
  if (isRefusal(amount)) throw refused(amount);
  // A repeat of a billed call answers the first row and writes no second ai_query_debit audit row.
  const repeat = await firstDebit(ctx, params.external_call_id, params.user_id, amount);
  if (repeat) return unaudited(repeat);
  const row = ledgerRow(
    ctx,
    "deduction",
    {
      userId: params.user_id,
      amount,
      description: params.description,
      referenceType: "ai_call",
      referenceId: params.external_call_id,
      externalCallId: params.external_call_id,
    },
    0,
  );
  if (!(await claimExternalCall(ctx.em, row))) {
    const raced = await firstDebit(ctx, params.external_call_id, params.user_id, amount);
    if (raced) return unaudited(raced);
    throw new Error(`external_call_id ${params.external_call_id} is taken but its row is not visible`);
  }
  const debit = await moveOut(ctx, { cents: amount, currency: "USD" }, () =>
    debitWallet(ctx.em, params.user_id, amount, ctx.now()),
  );
  if (debit === null) throw await insufficient(ctx, params.user_id, params.amount);
  await setBalanceAfter(ctx.em, row.sid, debit.balance);
  await afterDebit(ctx, params.user_id, debit);
  return toTransactionResult({ ...row, balance_after: fromCents(debit.balance) });
};
