import type { DocumentSignatureRow, EntityDraftRow, EntityInvitationRow } from "../../../generated/entities.ts";
import type { EntityDraftServiceHandlers } from "../../../generated/handlers/index.ts";
import { newToken } from "../../auth/tokens.ts";
import { acceptRefusal, declineRefusal } from "../../domain/entity-drafts.ts";
import { signingHash } from "../../domain/formation-documents.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { singleLine, textBlock } from "../../domain/text-render.ts";
import { findResident } from "../../repos/digital-residents.ts";
import { findRecordedSignature, recordSignature } from "../../repos/document-signatures.ts";
import * as drafts from "../../repos/entity-drafts.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { failureWith, signedInput } from "../shared/signing/verify.ts";
import {
  draftError,
  loadOwnInvitation,
  loadVisibleInvitation,
  refused,
  toInvitationResult,
  versionDocuments,
} from "./common.ts";
import { postInbox } from "./notices.ts";

type H = EntityDraftServiceHandlers<RpcContext>;

export const getMyInvitations: H["getMyInvitations"] = async (ctx) => {
  const rows = await drafts.invitationsOfUser(ctx.em, requireCaller(ctx).userId);
  return { items: rows.map(toInvitationResult) };
};

export const getInvitationDocuments: H["getInvitationDocuments"] = async (ctx, { invitation_id }) => {
  const { invitation, draft } = await loadVisibleInvitation(ctx, invitation_id);
  const documents = versionDocuments(draft, invitation.document_version);
  return {
    invitation_id: invitation.sid,
    draft_id: draft.sid,
    document_version: invitation.document_version,
    documents,
    signing_hash: signingHash(documents),
  };
};

/** Receipt ids as documentservice.submit_signed makes them: 32 random bytes. */
const RECEIPT_PREFIX = "fzrc_";

/**
 * The signature record of an acceptance: with the resident's current Ed25519 key, `signature` must verify over the
 * signing hash (and is stored with that key); without a key it must be absent and the record is an acceptance
 * (`acceptance:<invitation id>`, empty key, version 0), which no verification operation accepts as a signature.
 */
async function signatureRecord(
  ctx: RpcContext,
  invitation: EntityInvitationRow,
  draft: EntityDraftRow,
  signature: string | undefined,
): Promise<Omit<DocumentSignatureRow, "created_at" | "updated_at">> {
  const caller = requireCaller(ctx);
  const resident = await findResident(ctx.em, invitation.invitee_dr_id);
  if (!resident) throw draftError.notFound("resident");
  const hash = signingHash(versionDocuments(draft, draft.document_version));
  const key = resident.public_key;
  if (key !== null && signature === undefined)
    throw draftError("InvalidInput", "your resident has a signing key: sign signing_hash", { field: "signature" });
  if (key === null && signature !== undefined)
    throw draftError("InvalidInput", "your resident has no signing key to verify the signature", {
      field: "signature",
    });
  if (key !== null && signature !== undefined) {
    const input = signedInput(signature, hash);
    if (isRefusal(input)) throw refused(input);
    if (failureWith(key, input) !== null)
      throw draftError("InvalidSignature", "the signature does not verify with your resident's current key");
  }
  const now = ctx.now();
  return {
    sid: uuidv7(now),
    user_id: caller.userId,
    partner_id: caller.partnerId,
    entity_type: "resident",
    entity_id: resident.resident_id,
    document_type: "agreement",
    document_hash: hash,
    signature: signature ?? `acceptance:${invitation.sid}`,
    public_key: key ?? "",
    key_version: key === null ? 0 : resident.keypair_version,
    receipt_id: newToken(RECEIPT_PREFIX),
    signed_at: now,
  };
}

export const acceptInvitation: H["acceptInvitation"] = async (ctx, { invitation_id, signature }) => {
  const { invitation, draft } = await loadOwnInvitation(ctx, invitation_id);
  const now = ctx.now();
  const refusal = acceptRefusal(invitation, draft, now);
  if (refusal) throw refused(refusal);
  const record = await signatureRecord(ctx, invitation, draft, signature);
  let signatureId = record.sid;
  if (!(await recordSignature(ctx.em, record, now))) {
    const first = await findRecordedSignature(ctx.em, "resident", record.entity_id, record.signature);
    if (!first) throw draftError("InvalidState", "the signature could not be recorded");
    signatureId = first.sid;
  }
  const answered = await drafts.respondIf(ctx.em, invitation.sid, draft.document_version, now, {
    status: "accepted",
    signature_id: signatureId,
  });
  if (answered === 0) throw draftError("InvalidState", "the invitation was answered meanwhile");
  if ((await drafts.countSignature(ctx.em, draft.sid, draft.document_version, now)) === 0)
    throw draftError("InvalidState", "the draft changed meanwhile; reload it");
  const after = await drafts.findInvitation(ctx.em, invitation.sid);
  if (!after) throw draftError.notFound("invitation");
  return toInvitationResult(after);
};

export const declineInvitation: H["declineInvitation"] = async (ctx, { invitation_id, reason }) => {
  const { invitation, draft } = await loadOwnInvitation(ctx, invitation_id);
  const decided = declineRefusal(invitation.status, reason);
  if (isRefusal(decided)) throw refused(decided);
  const now = ctx.now();
  const answered = await drafts.respondIf(ctx.em, invitation.sid, invitation.document_version, now, {
    status: "rejected",
    decline_reason: decided.reason,
  });
  if (answered === 0) throw draftError("InvalidState", "the invitation was answered or has expired");
  const who = singleLine(invitation.invitee_email);
  const entity = singleLine(draft.entity_name);
  postInbox(
    ctx.em,
    draft.creator_user_id,
    `${who} declined to sign ${entity}`,
    [
      `${who} declined the invitation to sign the formation documents of ${entity}.`,
      decided.reason === null ? "No reason was given." : `Reason: ${textBlock(decided.reason)}`,
      "The draft cannot complete: reopen it to edit the cap table or documents and finalize again, or cancel it.",
    ].join("\n"),
    now,
  );
  const after = await drafts.findInvitation(ctx.em, invitation.sid);
  if (!after) throw draftError.notFound("invitation");
  return toInvitationResult(after);
};
