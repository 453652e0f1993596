import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { ledgerAmount, referenceType, refundRefusal } from "../../domain/ledger.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { lockWallet } from "../../repos/credit-balances.ts";
import { referenceTotals } from "../../repos/credit-transactions.ts";
import { findUserById } from "../../repos/users.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { creditError, postCredit, refused } from "./common.ts";

/*
 * Administrator credits (x-auth admin: a signed-in administrator; the dispatcher refuses everyone else, and
 * writes the grant_bonus audit row on success and on denial). Each is also an AdminAction.
 */

type Handlers = CreditServiceHandlers<RpcContext>;

/** A `bonus` row (reference `admin`, the AdminAction's sid). */
export const addBonus: Handlers["addBonus"] = async (ctx, { user_id, amount, description }) => {
  const cents = ledgerAmount(amount);
  if (isRefusal(cents)) throw refused(cents);
  if (!(await findUserById(ctx.em, user_id))) throw creditError.notFound("user");
  const actionId = recordAdminAction(ctx, {
    action: "grant_bonus",
    targetType: "wallet",
    targetId: user_id,
    details: { amount, description },
  });
  return postCredit(ctx, "bonus", {
    userId: user_id,
    amount: cents,
    description,
    referenceType: "admin",
    referenceId: actionId,
  });
};

/**
 * A `refund` row naming the deduction's reference; the wallet row is locked first so two refunds of one
 * reference cannot together pass what was deducted.
 */
export const refund: Handlers["refund"] = async (ctx, params) => {
  const cents = ledgerAmount(params.amount);
  if (isRefusal(cents)) throw refused(cents);
  const refType = referenceType(params.reference_type);
  if (isRefusal(refType)) throw refused(refType);
  await lockWallet(ctx.em, params.user_id, ctx.now());
  const totals = await referenceTotals(ctx.em, params.user_id, refType, params.reference_id);
  const bad = refundRefusal(totals.deducted, totals.refunded, cents);
  if (bad) throw refused(bad);
  recordAdminAction(ctx, {
    action: "refund_credits",
    targetType: "wallet",
    targetId: params.user_id,
    details: { amount: params.amount, reference_type: refType, reference_id: params.reference_id },
  });
  return postCredit(ctx, "refund", {
    userId: params.user_id,
    amount: cents,
    description: params.description,
    referenceType: refType,
    referenceId: params.reference_id,
  });
};
