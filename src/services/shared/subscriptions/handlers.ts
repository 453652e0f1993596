import type { PaymentServiceHandlers } from "../../../../generated/handlers/index.ts";
import { isRefusal } from "../../../domain/refusal.ts";
import { isRenewalPlan, renewalPlanRefusal } from "../../../domain/subscriptions.ts";
import { findOwnResident } from "../../../repos/digital-residents.ts";
import { lockCompany, lockResident } from "../../../repos/subscriptions.ts";
import { recordAdminAction } from "../../../rpc/admin-actions.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../../rpc/context.ts";
import { errorsFor } from "../../../rpc/service-errors.ts";
import { toSubscriptionInfo } from "./info.ts";
import { renewCompany, renewResident } from "./renew.ts";

/**
 * paymentservice.initiate_renewal, initiate_company_renewal and get_subscription_status: load (and lock), renew
 * with src/services/shared/subscriptions/renew.ts, map refusals to PaymentError. The dispatcher already bound user_id to
 * the caller, checked the director role for the company and writes the renew_subscription audit rows.
 */

type Handlers = PaymentServiceHandlers<RpcContext>;

const paymentError = errorsFor("PaymentService", "PaymentError");

/** The caller's own resident (the pair: a reseller key's own resident, a personal caller's personal one). */
const ownResident = (ctx: RpcContext, userId: string) =>
  findOwnResident(ctx.em, { userId, partnerId: requireCaller(ctx).partnerId });

function planOf(plan: string) {
  const bad = renewalPlanRefusal(plan);
  if (bad || !isRenewalPlan(plan)) throw paymentError("InvalidInput", bad?.message, bad?.details);
  return plan;
}

export const initiateRenewal: Handlers["initiateRenewal"] = async (ctx, { user_id, plan }) => {
  const renewal = planOf(plan);
  const own = await ownResident(ctx, user_id);
  const resident = own && (await lockResident(ctx.em, own.resident_id));
  if (!resident) throw paymentError.notFound("resident");
  const out = await renewResident(ctx, resident, renewal, user_id);
  if (isRefusal(out)) throw paymentError(out.refusal, out.message, out.details);
  return out;
};

export const initiateCompanyRenewal: Handlers["initiateCompanyRenewal"] = async (ctx, params) => {
  const renewal = planOf(params.plan);
  const company = await lockCompany(ctx.em, params.company_id);
  if (!company) throw paymentError.notFound("company");
  const out = await renewCompany(ctx, company, renewal, params.user_id);
  if (isRefusal(out)) throw paymentError(out.refusal, out.message, out.details);
  if (isAdminSession(requireCaller(ctx))) {
    recordAdminAction(ctx, {
      action: "renew_company_subscription",
      targetType: "company",
      targetId: company.company_id,
      details: { plan: renewal, amount: out.amount_charged, subscription_end_date: out.subscription_end_date },
    });
  }
  return out;
};

export const getSubscriptionStatus: Handlers["getSubscriptionStatus"] = async (ctx, { user_id }) => {
  const resident = await ownResident(ctx, user_id);
  if (!resident) throw paymentError.notFound("resident");
  return toSubscriptionInfo({ type: "resident", id: resident.resident_id, row: resident }, ctx.now());
};
