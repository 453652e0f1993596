import type { EntityDraftRow, EntityInvitationRow } from "../../../generated/entities.ts";
import type { EntityDraftServiceHandlers } from "../../../generated/handlers/index.ts";
import type { ShareholderData } from "../../../generated/types.ts";
import { creatorRowIndex, finalizeRefusal, moveRefusal, normalEmail, roundStart } from "../../domain/entity-drafts.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { singleLine } from "../../domain/text-render.ts";
import { sendEmail } from "../../integrations/email/index.ts";
import { findOwnResident } from "../../repos/digital-residents.ts";
import * as drafts from "../../repos/entity-drafts.ts";
import { findUserByEmail } from "../../repos/users.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { draftError, draftResult, loadOwnDraft, refused, residentName } from "./common.ts";
import { invitationEmail, postInbox } from "./notices.ts";

type H = EntityDraftServiceHandlers<RpcContext>;

/** An invitee resolved from a cap-table row: the user of its email and that user's personal resident. */
interface Invitee {
  row: ShareholderData;
  userId: string;
  residentId: string;
}

/**
 * Each cap-table row but the creator's resolved to the personal resident of the user registered with its email
 * (cap_table_email); a row naming a resident id must name that one. InvalidInput names the first row that fails.
 */
async function resolveInvitees(ctx: RpcContext, draft: EntityDraftRow): Promise<Invitee[]> {
  const caller = requireCaller(ctx);
  const own = creatorRowIndex(draft.shareholders, caller.email, draft.creator_dr_id);
  const out: Invitee[] = [];
  for (const [i, row] of draft.shareholders.entries()) {
    if (i === own) continue;
    const bad = (why: string) =>
      draftError("InvalidInput", `cap-table row ${i}: ${why}`, { field: `shareholders[${i}]` });
    const user = await findUserByEmail(ctx.em, normalEmail(row.email));
    if (!user) throw bad("no user is registered with this email");
    if (user.sid === caller.userId) throw bad("the creator's own row is listed twice");
    const resident = await findOwnResident(ctx.em, { userId: user.sid, partnerId: null });
    if (!resident) throw bad("the invitee has no resident");
    if (row.resident_id !== null && row.resident_id !== resident.resident_id)
      throw bad("resident_id is not the resident of this email");
    out.push({ row, userId: user.sid, residentId: resident.resident_id });
  }
  return out;
}

export const finalizeDraft: H["finalizeDraft"] = async (ctx, { draft_id }) => {
  const draft = await loadOwnDraft(ctx, draft_id);
  const now = ctx.now();
  const refusal = finalizeRefusal(draft.status, draft.signature_deadline, now);
  if (refusal) throw refused(refusal);
  const invitees = await resolveInvitees(ctx, draft);
  const earlier = await drafts.invitationsOfDraft(ctx.em, draft.sid);
  const start = roundStart(
    earlier.map((i) => i.invited_at),
    now,
  );
  const moved = await drafts.updateDraftIf(
    ctx.em,
    draft.sid,
    ["draft"],
    {
      status: "pending_signatures",
      finalized_at: start,
      total_required_signatures: invitees.length,
      completed_signatures: 0,
      updated_at: now,
    },
    draft.document_version,
  );
  if (moved === 0) throw draftError("InvalidState", "the draft changed meanwhile; reload it");
  const inviterName = await residentName(ctx.em, draft.creator_dr_id);
  const rows: EntityInvitationRow[] = invitees.map((i) => ({
    sid: uuidv7(now),
    draft_id: draft.sid,
    entity_name: draft.entity_name,
    inviter_user_id: draft.creator_user_id,
    inviter_dr_id: draft.creator_dr_id,
    inviter_name: inviterName,
    invitee_user_id: i.userId,
    invitee_email: i.row.email,
    invitee_dr_id: i.residentId,
    cap_table_email: normalEmail(i.row.email),
    role: i.row.role ?? (draft.entity_type === "cooperative" ? "founding_member" : "shareholder"),
    share_units: i.row.units,
    status: "pending",
    document_version: draft.document_version,
    signature_id: null,
    invited_at: start,
    responded_at: null,
    expires_at: draft.signature_deadline,
    decline_reason: null,
    created_at: now,
    updated_at: now,
  }));
  await drafts.insertInvitations(ctx.em, rows);
  for (const inv of rows) {
    const message = invitationEmail({
      to: inv.invitee_email,
      entityName: inv.entity_name,
      inviterName,
      role: inv.role,
      invitationId: inv.sid,
      expiresAt: inv.expires_at,
      baseUrl: ctx.config.publicBaseUrl,
    });
    await sendEmail(ctx, "DraftError", message);
    postInbox(ctx.em, inv.invitee_user_id, message.subject, message.bodyText, now);
  }
  return draftResult(ctx, draft.sid);
};

export const reopenDraft: H["reopenDraft"] = async (ctx, { draft_id }) => {
  const draft = await loadOwnDraft(ctx, draft_id);
  const state = moveRefusal("reopen", draft.status);
  if (state) throw refused(state);
  const now = ctx.now();
  const moved = await drafts.updateDraftIf(ctx.em, draft.sid, ["pending_signatures"], {
    status: "draft",
    finalized_at: null,
    total_required_signatures: 0,
    completed_signatures: 0,
    updated_at: now,
  });
  if (moved === 0) throw draftError("InvalidState", "the draft changed meanwhile; reload it");
  await drafts.expirePendingInvitations(ctx.em, [draft.sid], now);
  return draftResult(ctx, draft.sid);
};

export const cancelDraft: H["cancelDraft"] = async (ctx, { draft_id }) => {
  const draft = await loadOwnDraft(ctx, draft_id);
  const state = moveRefusal("cancel", draft.status);
  if (state) throw refused(state);
  const now = ctx.now();
  const moved = await drafts.updateDraftIf(ctx.em, draft.sid, ["draft", "pending_signatures"], {
    status: "cancelled",
    updated_at: now,
  });
  if (moved === 0) throw draftError("InvalidState", "the draft changed meanwhile; reload it");
  const pending = (await drafts.invitationsOfDraft(ctx.em, draft.sid)).filter((i) => i.status === "pending");
  await drafts.expirePendingInvitations(ctx.em, [draft.sid], now);
  const entity = singleLine(draft.entity_name);
  for (const inv of pending)
    postInbox(
      ctx.em,
      inv.invitee_user_id,
      `Formation of ${entity} cancelled`,
      `The founder cancelled the formation of ${entity}; your invitation has expired.`,
      now,
    );
  return draftResult(ctx, draft.sid);
};
