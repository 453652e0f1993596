import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { PaymentServiceHandlers } from "../../../generated/handlers/index.ts";
import { adminConfirmRefusal } from "../../domain/payments.ts";
import { findPayment, hashUsedElsewhere } from "../../repos/payments.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { paymentError, refused, toConfirmResult } from "./common.ts";
import { confirmOpenPayment } from "./confirm.ts";

type Handlers = PaymentServiceHandlers<RpcContext>;

/**
 * An administrator confirms a payment (bank transfers, manual settlement): an open payment before its expiry,
 * never one the administrator paid. The purpose applies in the same transaction; written as an AdminAction.
 */
export const confirmPayment: Handlers["confirmPayment"] = async (ctx, params) => {
  const admin = requireCaller(ctx);
  const now = ctx.now();
  const payment = await findPayment(ctx.em, params.payment_id);
  if (!payment) throw paymentError.notFound("payment");
  const bad = adminConfirmRefusal(payment, admin.userId, now);
  if (bad) throw refused(bad);
  const hash = params.transaction_hash ?? null;
  if (hash !== null && (await hashUsedElsewhere(ctx.em, hash, payment.sid))) {
    throw paymentError("AlreadyUsed", "this transaction hash confirmed another payment");
  }
  const changes = {
    ...(params.sender_address !== undefined ? { sender_address: params.sender_address } : {}),
    ...(hash !== null ? { transaction_hash: hash } : {}),
  };
  const confirmation = await confirmOpenPayment(ctx, payment, changes).catch((err: unknown) => {
    if (err instanceof UniqueConstraintViolationException) {
      throw paymentError("AlreadyUsed", "this transaction hash confirmed another payment", undefined, err);
    }
    throw err;
  });
  if (!confirmation) {
    const now = await findPayment(ctx.em, payment.sid);
    throw paymentError("InvalidState", "the payment was decided meanwhile", { status: now?.status ?? null });
  }
  recordAdminAction(ctx, {
    action: "confirm_payment",
    targetType: "payment",
    targetId: payment.sid,
    details: {
      amount: payment.amount,
      currency: payment.currency,
      payment_purpose: payment.payment_purpose,
      fulfilled: confirmation.fulfilled,
    },
  });
  return toConfirmResult(confirmation.row, confirmation.fulfilled, confirmation.creditTransactionId);
};
