import type { KycServiceHandlers } from "../../../generated/handlers/index.ts";
import { reasonText, reviewRefusal } from "../../domain/kyc.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { deletePersonalDataFrom } from "../../repos/kyc-personal-data.ts";
import { findKycSession, moveKycSession } from "../../repos/kyc-sessions.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { kycError, recordCompletion, refused, toStatusResult } from "./common.ts";

type Handlers = KycServiceHandlers<RpcContext>;

async function loadHeldSession(ctx: RpcContext, sessionId: string) {
  const session = await findKycSession(ctx.em, sessionId);
  if (!session) throw kycError.notFound("KYC session");
  const notHeld = reviewRefusal(session.status);
  if (notHeld) throw refused(notHeld);
  return session;
}

const decidedMeanwhile = () => kycError("InvalidState", "the session was decided meanwhile");

/**
 * An administrator signs off a session held for review: completed, as after an approved verdict. The dispatcher
 * checked the administrator session and writes the verify_kyc audit row (also on refusal).
 */
export const approve: Handlers["approve"] = async (ctx, { session_id, note }) => {
  const session = await loadHeldSession(ctx, session_id);
  const now = ctx.now();
  const changes = {
    status: "completed" as const,
    verified_at: now,
    reviewed_by: requireCaller(ctx).email,
    updated_at: now,
  };
  if (!(await moveKycSession(ctx.em, session.sid, ["needs_review"], changes))) throw decidedMeanwhile();
  const moved = { ...session, ...changes };
  await recordCompletion(ctx, moved, now);
  recordAdminAction(ctx, {
    action: "approve_kyc",
    targetType: "kyc_session",
    targetId: session.sid,
    details: { resident_id: session.resident_id, note: note ?? null },
  });
  return toStatusResult(moved, now);
};

/** Rejected: the session fails, what it captured is deleted, and the resident may start a new verification. */
export const reject: Handlers["reject"] = async (ctx, { session_id, reason }) => {
  const text = reasonText(reason);
  const session = await loadHeldSession(ctx, session_id);
  if (isRefusal(text)) throw refused(text);
  const now = ctx.now();
  const changes = {
    status: "failed" as const,
    review_reason: text,
    reviewed_by: requireCaller(ctx).email,
    updated_at: now,
  };
  if (!(await moveKycSession(ctx.em, session.sid, ["needs_review"], changes))) throw decidedMeanwhile();
  const deleted = session.kycprovider_scan_ref
    ? await deletePersonalDataFrom(ctx.em, session.resident_id, session.kycprovider_scan_ref)
    : 0;
  recordAdminAction(ctx, {
    action: "reject_kyc",
    targetType: "kyc_session",
    targetId: session.sid,
    details: { resident_id: session.resident_id, reason: text, personal_data_deleted: deleted > 0 },
  });
  return toStatusResult({ ...session, ...changes }, now);
};
