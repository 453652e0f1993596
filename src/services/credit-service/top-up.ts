import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { ledgerAmount, topUpRefusal } from "../../domain/ledger.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { findPayment } from "../../repos/credit-payments.ts";
import { findTopUpOfPayment } from "../../repos/credit-transactions.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { creditError, postCredit, refused } from "./common.ts";

type Handlers = CreditServiceHandlers<RpcContext>;

/**
 * A `top_up` row from a confirmed credit top-up payment of that user. Each payment credits once: a second
 * top-up of it is AlreadyUsed (checked first, and guaranteed by the partial unique index on reference_id of
 * top_up rows when two race).
 */
export const topUp: Handlers["topUp"] = async (ctx, { user_id, amount, payment_id }) => {
  const cents = ledgerAmount(amount);
  if (isRefusal(cents)) throw refused(cents);
  const payment = await findPayment(ctx.em, payment_id);
  if (!payment) throw creditError.notFound("payment");
  const bad = topUpRefusal(payment, user_id, cents);
  if (bad) throw refused(bad);
  if (await findTopUpOfPayment(ctx.em, payment_id)) throw creditError("AlreadyUsed", "the payment was credited");
  try {
    const result = await postCredit(ctx, "top_up", {
      userId: user_id,
      amount: cents,
      description: "Credit top-up",
      referenceType: "payment",
      referenceId: payment_id,
    });
    recordAdminAction(ctx, {
      action: "top_up_credits",
      targetType: "wallet",
      targetId: user_id,
      details: { amount, payment_id },
    });
    return result;
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      throw creditError("AlreadyUsed", "the payment was credited", undefined, err);
    }
    throw err;
  }
};
