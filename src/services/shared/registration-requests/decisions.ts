import type { RegistrationRequestRow } from "../../../../generated/entities.ts";
import type { AdminRegistrationServiceHandlers } from "../../../../generated/handlers/index.ts";
import type { RegistrationRequestStatus } from "../../../../generated/types.ts";
import { normalizeEmail } from "../../../domain/email.ts";
import { isRefusal, type Refusal } from "../../../domain/refusal.ts";
import {
  adminText,
  approvalPayload,
  nextStatus,
  type RequestMove,
  splitName,
} from "../../../domain/registration-requests.ts";
import { payloadDigest, verifyRequestSignature } from "../../../domain/request-signature.ts";
import * as partners from "../../../repos/partners.ts";
import type { RequestChanges } from "../../../repos/registration-requests.ts";
import * as requests from "../../../repos/registration-requests.ts";
import { recordAdminAction } from "../../../rpc/admin-actions.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { createResident } from "../new-resident.ts";
import { checkPrerequisites, SIGNATURE_MESSAGES, signedFieldsOf } from "./common.ts";
import { createPartnerCompany } from "./company-approval.ts";
import { adminRegistrationError, loadRequest } from "./review.ts";

/**
 * AdminRegistrationService, the decisions: start the review, approve (with the administrator's signature; a resident request creates
 * the partner-onboarded resident, a company request the partner's company), reject, ask for more information. Each is a conditional state move
 * (docs/decisions.md "Registration request states") and an AdminAction.
 */

type Handlers = AdminRegistrationServiceHandlers<RpcContext>;

const refused = (r: Refusal<"InvalidInput" | "InvalidState">) =>
  adminRegistrationError(r.refusal, r.message, r.details);

interface Decision {
  row: RegistrationRequestRow;
  email: string;
  next: RegistrationRequestStatus;
}

/** Loads the request and checks what every decision needs: admin_email is the caller's, the move is allowed. */
async function decide(ctx: RpcContext, requestId: string, adminEmail: string, move: RequestMove): Promise<Decision> {
  const row = await loadRequest(ctx, requestId);
  const email = requireCaller(ctx).email;
  if (normalizeEmail(adminEmail) !== email) {
    throw adminRegistrationError("Forbidden", "admin_email must be the signed-in administrator's email");
  }
  const next = nextStatus(row.status, move);
  if (isRefusal(next)) throw refused(next);
  return { row, email, next };
}

/** Applies the move unless another call moved the request first. */
async function move(ctx: RpcContext, d: Decision, changes: Omit<RequestChanges, "status" | "updated_at">) {
  const now = ctx.now();
  const all = { ...changes, status: d.next, reviewed_by: d.email, reviewed_at: now, updated_at: now };
  if ((await requests.moveRequest(ctx.em, d.row.sid, d.row.status, all)) === 0) {
    throw adminRegistrationError("InvalidState", "the request was moved meanwhile; read it again");
  }
  return now;
}

/** The administrator's signature over the approval payload, checked with the key of the administrator's resident. */
async function requireAdminSignature(ctx: RpcContext, d: Decision, signature: string): Promise<void> {
  const key = await requests.personalResidentKey(ctx.em, requireCaller(ctx).userId);
  if (!key) {
    throw adminRegistrationError("InvalidSignature", "the administrator has no resident key to verify the signature", {
      reason: "no_signing_key",
    });
  }
  const payload = approvalPayload(d.row.sid, signedFieldsOf(d.row), d.row.reseller_signature, d.email);
  const verdict = verifyRequestSignature(key, payloadDigest(payload), signature);
  if (verdict !== "valid") {
    throw adminRegistrationError("InvalidSignature", SIGNATURE_MESSAGES[verdict], { reason: verdict });
  }
}

export const approveRegistration: Handlers["approveRegistration"] = async (ctx, p) => {
  const d = await decide(ctx, p.request_id, p.admin_email, "approve");
  await requireAdminSignature(ctx, d, p.admin_signature);
  const partner = await partners.findPartner(ctx.em, d.row.partner_id);
  const failed = (await checkPrerequisites(ctx, d.row, partner)).filter((c) => !c.passed);
  if (failed.length > 0) {
    throw adminRegistrationError("InvalidState", "prerequisites fail", {
      failed: failed.map((c) => c.name),
      checks: failed,
    });
  }
  const now = await move(ctx, d, { admin_signature: p.admin_signature });
  let createdEntityId: string | null = null;
  if (d.row.request_type === "resident") {
    const resident = await createResident(ctx, {
      user_id: null,
      partner_id: d.row.partner_id,
      email: d.row.client_email,
      ...splitName(d.row.client_name),
      resident_type: "partner_created",
      source: "partner",
    });
    createdEntityId = resident.resident_id;
  } else if (partner) {
    createdEntityId = await createPartnerCompany(ctx, d.row, partner);
  }
  if (createdEntityId !== null) await requests.setCreatedEntity(ctx.em, d.row.sid, createdEntityId);
  recordAdminAction(ctx, {
    action: "approve_registration_request",
    targetType: "registration_request",
    targetId: d.row.sid,
    details: { request_type: d.row.request_type, partner_id: d.row.partner_id, created_entity_id: createdEntityId },
  });
  return {
    request_id: d.row.sid,
    status: d.next,
    request_type: d.row.request_type,
    approved_by: d.email,
    approved_at: now.toISOString(),
    created_entity_id: createdEntityId,
  };
};

export const rejectRegistration: Handlers["rejectRegistration"] = async (ctx, p) => {
  const d = await decide(ctx, p.request_id, p.admin_email, "reject");
  const reason = adminText(p.reason, "reason");
  if (isRefusal(reason)) throw refused(reason);
  const now = await move(ctx, d, { rejection_reason: reason });
  recordAdminAction(ctx, {
    action: "reject_registration_request",
    targetType: "registration_request",
    targetId: d.row.sid,
    details: { reason },
  });
  return { request_id: d.row.sid, status: d.next, reason, rejected_by: d.email, rejected_at: now.toISOString() };
};

export const startReview: Handlers["startReview"] = async (ctx, p) => {
  const d = await decide(ctx, p.request_id, p.admin_email, "start_review");
  const now = await move(ctx, d, {});
  recordAdminAction(ctx, {
    action: "start_registration_review",
    targetType: "registration_request",
    targetId: d.row.sid,
    details: { from: d.row.status, to: d.next },
  });
  return { request_id: d.row.sid, status: d.next, reviewed_by: d.email, reviewed_at: now.toISOString() };
};

export const requestAdditionalInfo: Handlers["requestAdditionalInfo"] = async (ctx, p) => {
  const d = await decide(ctx, p.request_id, p.admin_email, "ask_info");
  const message = adminText(p.message, "message");
  if (isRefusal(message)) throw refused(message);
  const now = await move(ctx, d, { info_request_message: message });
  recordAdminAction(ctx, {
    action: "request_registration_info",
    targetType: "registration_request",
    targetId: d.row.sid,
    details: { message },
  });
  return { request_id: d.row.sid, status: d.next, message, requested_by: d.email, requested_at: now.toISOString() };
};
