import type { RegistrationServiceHandlers } from "../../../generated/handlers/index.ts";
import type { EntityType, RegistrationStatusResult } from "../../../generated/types.ts";
import { flowStatusOf, flowStepsOf, kycStatusAsOf } from "../../domain/activation.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { effectiveStatus } from "../../domain/resident-status.ts";
import { findOwnResident, type OwnerCaller } from "../../repos/digital-residents.ts";
import { findFlow, kycSessionsOf, recordFlow, registrationPayments } from "../../repos/registration.ts";
import { findUserById } from "../../repos/users.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { applyActivation, judgeActivation, toActivateResult } from "./activation.ts";
import { confirmedPayment, flowFacts } from "./facts.ts";

export const registrationError = errorsFor("RegistrationService", "RegistrationError");

type Handlers = RegistrationServiceHandlers<RpcContext>;

const callerPair = (ctx: RpcContext, userId: string): OwnerCaller => ({
  userId,
  partnerId: requireCaller(ctx).partnerId,
});

/**
 * The flow of a user, from the records alone: the status is the first step not done and the flags follow it
 * (flowStepsOf: monotone). The recorded RegistrationFlow row is reported beside it, never mixed in: the server
 * records kyc_complete when a KYC session completes, which may come before the payment.
 */
export async function registrationStatus(
  ctx: RpcContext,
  owner: OwnerCaller,
  entityType: EntityType,
): Promise<RegistrationStatusResult> {
  const { facts, resident } = await flowFacts(ctx, owner, entityType);
  const stored = await findFlow(ctx.em, owner.userId, entityType);
  const status = flowStatusOf(facts);
  const steps = flowStepsOf(status);
  return {
    user_id: owner.userId,
    entity_type: entityType,
    status,
    identity_complete: steps.identity,
    personal_info_complete: steps.personalInfo,
    payment_complete: steps.payment,
    kyc_complete: steps.kyc,
    registration_complete: steps.registration,
    resident_id: resident?.resident_id ?? null,
    recorded_status: stored?.status ?? null,
    updated_at: stored?.updated_at.toISOString() ?? null,
  };
}

export const getStatus: Handlers["getStatus"] = async (ctx, { user_id, entity_type }) =>
  registrationStatus(ctx, callerPair(ctx, user_id), entity_type);

/** Internal (refused from outside by the dispatcher): records the flow status the server observed. */
export const updateStatus: Handlers["updateStatus"] = async (ctx, { user_id, entity_type, status }) => {
  const user = await findUserById(ctx.em, user_id);
  if (!user) throw registrationError.notFound("user");
  await recordFlow(ctx.em, user_id, entity_type, status, ctx.now());
  return registrationStatus(ctx, { userId: user_id, partnerId: user.partner_id }, entity_type);
};

export const checkPaymentComplete: Handlers["checkPaymentComplete"] = async (ctx, { user_id }) => {
  const owner = callerPair(ctx, user_id);
  const resident = await findOwnResident(ctx.em, owner);
  const payments = resident
    ? await registrationPayments(ctx.em, null, "resident_subscription", [resident.resident_id, resident.sid])
    : await registrationPayments(ctx.em, user_id, "company_registration", null);
  const confirmed = confirmedPayment(payments);
  const shown = confirmed ?? payments[0] ?? null;
  return {
    user_id,
    payment_complete: confirmed !== null || resident?.subscription_start_date != null,
    payment_id: shown?.sid ?? null,
    status: shown?.status ?? null,
    amount: shown?.amount ?? null,
    currency: shown?.currency ?? null,
    confirmed_at: shown?.confirmed_at?.toISOString() ?? null,
  };
};

export const checkKycComplete: Handlers["checkKycComplete"] = async (ctx, { user_id }) => {
  const resident = await findOwnResident(ctx.em, callerPair(ctx, user_id));
  const sessions = resident ? await kycSessionsOf(ctx.em, resident.resident_id) : [];
  const completed = sessions.find((s) => s.status === "completed");
  const shown = completed ?? sessions[0] ?? null;
  return {
    user_id,
    kyc_complete: completed !== undefined,
    resident_id: resident?.resident_id ?? null,
    session_id: shown?.sid ?? null,
    kyc_status: shown ? kycStatusAsOf(shown, ctx.now()) : null,
    verified_at: shown?.verified_at?.toISOString() ?? null,
  };
};

export const activateIfComplete: Handlers["activateIfComplete"] = async (ctx, { user_id }) => {
  const resident = await findOwnResident(ctx.em, callerPair(ctx, user_id));
  if (!resident) throw registrationError.notFound("resident");
  const now = ctx.now();
  const status = effectiveStatus(resident, now);
  // Asked again after activation: the same activation.
  if (status === "active") return toActivateResult(user_id, resident, status, true, []);
  const decision = await judgeActivation(ctx, resident);
  if (isRefusal(decision)) throw registrationError("InvalidState", decision.message, decision.details);
  if (!decision.activate) return toActivateResult(user_id, resident, status, false, decision.missing);
  const activated = await applyActivation(ctx, resident, decision);
  if (!activated) throw registrationError("InvalidState", "the resident changed meanwhile; ask again");
  return toActivateResult(user_id, activated, "active", true, []);
};
