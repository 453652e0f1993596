import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { ledgerAmount, referenceType } from "../../domain/ledger.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { findWallet } from "../../repos/credit-balances.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { creditError, postDebit, refused, toTransactionResult } from "./common.ts";

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
  const row = await postDebit(ctx, {
    userId: params.user_id,
    amount,
    description: params.description,
    referenceType: refType,
    referenceId: params.reference_id,
  });
  if (!row) throw await insufficient(ctx, params.user_id, params.amount);
  return toTransactionResult(row);
};

export { insufficient };
