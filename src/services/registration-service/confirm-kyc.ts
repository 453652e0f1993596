import type { RegistrationServiceHandlers } from "../../../generated/handlers/index.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { effectiveStatus } from "../../domain/resident-status.ts";
import { writeAudit } from "../../repos/audit-log.ts";
import { findResident, updateResidentIf } from "../../repos/digital-residents.ts";
import { completeKycSession, findFlow, lockKycSession } from "../../repos/registration.ts";
import { findUserById } from "../../repos/users.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { applyActivation, judgeActivation, recordFlowAtLeast } from "./activation.ts";

const kycError = errorsFor("RegistrationService", "KycError");

type Handlers = RegistrationServiceHandlers<RpcContext>;

/**
 * Internal (the dispatcher refuses every outside call): records a completed verification on the session and the
 * resident, records the flow as kyc_complete, and tries activation with the one rule. The session row is locked, so
 * two confirmations of one session take turns and the second finds it completed.
 */
export const confirmKyc: Handlers["confirmKyc"] = async (ctx, { user_id, resident_id, data }) => {
  const now = ctx.now();
  if (!(await findUserById(ctx.em, user_id))) throw kycError.notFound("user");
  const resident = await findResident(ctx.em, resident_id);
  if (!resident) throw kycError.notFound("resident");
  const session = await lockKycSession(ctx.em, data.session_id);
  if (!session) throw kycError.notFound("KYC session");
  const providerId = data.kyc_provider_id.trim();
  const verifiedAt = new Date(data.verified_at);
  if (providerId === "")
    throw kycError("InvalidInput", "kyc_provider_id must not be blank", { field: "kyc_provider_id" });
  if (!data.identity_verified) throw kycError("InvalidInput", "a confirmation needs identity_verified true");
  if (verifiedAt.getTime() > now.getTime()) throw kycError("InvalidInput", "verified_at lies in the future");
  if (resident.user_id !== user_id) throw kycError("InvalidState", "the resident does not belong to the user");
  if (session.resident_id !== resident_id || session.user_id !== user_id) {
    throw kycError("InvalidState", "the session belongs to another resident");
  }
  if (session.status === "completed") throw kycError("InvalidState", "the session is verified already");
  const status = effectiveStatus(resident, now);
  if (status === "suspended") throw kycError("InvalidState", "the resident is suspended");
  const outcome = {
    identity_verified: data.identity_verified,
    document_verified: data.document_verified,
    liveness_verified: data.liveness_verified,
    verification_level: data.verification_level ?? null,
    verified_at: verifiedAt,
  };
  await completeKycSession(ctx.em, session.sid, outcome, now);
  const verified = { ...resident, kyc_provider_id: providerId, updated_at: now };
  if ((await updateResidentIf(ctx.em, resident_id, [resident.status], { kyc_provider_id: providerId }, now)) === 0) {
    throw kycError("InvalidState", "the resident changed meanwhile");
  }
  await recordFlowAtLeast(ctx, user_id, "kyc_complete");
  // The server's own call passes no dispatcher: the verify_kyc row of x-audit is written here, with its target.
  await writeAudit(
    ctx.em,
    {
      subjectId: user_id,
      action: "verify_kyc",
      targetRef: session.sid,
      targetType: "kyc_session",
      allowed: true,
      context: { method: "registrationservice.confirm_kyc", resident_id, by: "server" },
    },
    now,
  );
  const decision = status === "pending" ? await judgeActivation(ctx, verified) : null;
  const activated =
    decision && !isRefusal(decision) && decision.activate ? await applyActivation(ctx, verified, decision) : null;
  const flow = await findFlow(ctx.em, user_id, "resident");
  return {
    user_id,
    resident_id,
    session_id: session.sid,
    kyc_status: "completed",
    resident_status: activated ? "active" : status,
    registration_status: flow?.status ?? "kyc_complete",
    activated: activated !== null,
    verified_at: verifiedAt.toISOString(),
  };
};
