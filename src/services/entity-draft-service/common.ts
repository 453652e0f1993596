import type { EntityManager } from "@mikro-orm/postgresql";
import type { EntityDraftRow, EntityInvitationRow } from "../../../generated/entities.ts";
import type { DraftResult, InvitationResult, ShareholderData } from "../../../generated/types.ts";
import {
  documentsOf,
  type FormationFacts,
  parseStoredDocuments,
  renderFormation,
  type StoredDocument,
} from "../../domain/formation-documents.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { findResident } from "../../repos/digital-residents.ts";
import * as drafts from "../../repos/entity-drafts.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { formationTemplates } from "./templates.ts";

/** What the EntityDraftService use cases share: errors, who may see or act on a draft, renders and result mappers. */

export const draftError = errorsFor("EntityDraftService", "DraftError");

export type DraftRefusal = Refusal<
  "InvalidInput" | "InvalidState" | "Expired" | "VersionMismatch" | "NotOwner" | "InvalidSignature"
>;

export function refused(r: DraftRefusal): Error {
  return draftError(r.refusal, r.message, r.details);
}

/** The draft if the caller created it or was invited to it; NotFound otherwise (nothing is told to strangers). */
export async function loadVisibleDraft(ctx: RpcContext, draftId: string): Promise<EntityDraftRow> {
  const caller = requireCaller(ctx);
  const row = await drafts.findDraft(ctx.em, draftId);
  if (!row) throw draftError.notFound("draft");
  if (row.creator_user_id === caller.userId) return row;
  if (await drafts.isInvitee(ctx.em, row.sid, caller.userId)) return row;
  throw draftError.notFound("draft");
}

/** The draft for an act of its creator: invitees get NotOwner, everyone else NotFound. */
export async function loadOwnDraft(ctx: RpcContext, draftId: string): Promise<EntityDraftRow> {
  const row = await loadVisibleDraft(ctx, draftId);
  if (row.creator_user_id !== requireCaller(ctx).userId)
    throw draftError("NotOwner", "only the draft's creator may do this");
  return row;
}

/** The invitation if the caller is its invitee or the draft's creator; NotFound otherwise. */
export async function loadVisibleInvitation(
  ctx: RpcContext,
  invitationId: string,
): Promise<{ invitation: EntityInvitationRow; draft: EntityDraftRow }> {
  const caller = requireCaller(ctx);
  const invitation = await drafts.findInvitation(ctx.em, invitationId);
  const draft = invitation ? await drafts.findDraft(ctx.em, invitation.draft_id) : null;
  if (!invitation || !draft) throw draftError.notFound("invitation");
  if (invitation.invitee_user_id !== caller.userId && draft.creator_user_id !== caller.userId)
    throw draftError.notFound("invitation");
  return { invitation, draft };
}

/** The invitation for an act of its invitee: the draft's creator gets NotOwner, everyone else NotFound. */
export async function loadOwnInvitation(
  ctx: RpcContext,
  invitationId: string,
): Promise<{ invitation: EntityInvitationRow; draft: EntityDraftRow }> {
  const found = await loadVisibleInvitation(ctx, invitationId);
  if (found.invitation.invitee_user_id !== requireCaller(ctx).userId)
    throw draftError("NotOwner", "only the invitee may answer the invitation");
  return found;
}

/** The documents of a version rendered from the draft's fields. */
export function render(
  fields: Pick<EntityDraftRow, "entity_name" | "entity_type" | "company_type" | "template_data"> & {
    shareholders: ShareholderData[];
  },
  version: number,
  renderedOn: Date,
): StoredDocument[] {
  const facts: FormationFacts = {
    entityName: fields.entity_name,
    entityType: fields.entity_type,
    companyType: fields.company_type,
    documentVersion: version,
    templateData: JSON.parse(fields.template_data) as Record<string, unknown>,
    shareholders: fields.shareholders,
    renderedOn,
  };
  return renderFormation(formationTemplates(fields.company_type), facts);
}

export function versionDocuments(row: EntityDraftRow, version: number) {
  return documentsOf(parseStoredDocuments(row.rendered_documents), version);
}

/** Display name of a resident: first and last name, null when unknown or anonymous. */
export async function residentName(em: EntityManager, residentId: string): Promise<string | null> {
  const r = await findResident(em, residentId);
  if (!r || r.anonymity_enabled) return null;
  return `${r.first_name} ${r.last_name}`.trim() || null;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function toDraftResult(row: EntityDraftRow, companyId: string | null): DraftResult {
  return {
    sid: row.sid,
    entity_type: row.entity_type,
    entity_name: row.entity_name,
    company_type: row.company_type,
    creator_dr_id: row.creator_dr_id,
    template_data: row.template_data,
    shareholders: row.shareholders,
    due_process_executors: row.due_process_executors,
    status: row.status,
    document_version: row.document_version,
    signature_deadline: row.signature_deadline.toISOString(),
    total_required_signatures: row.total_required_signatures,
    completed_signatures: row.completed_signatures,
    form_schema_id: row.form_schema_id,
    finalized_at: iso(row.finalized_at),
    completed_at: iso(row.completed_at),
    paid_at: iso(row.paid_at),
    company_id: companyId,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The draft as it is stored now, mapped (with the company created from it, if any). */
export async function draftResult(ctx: RpcContext, sid: string): Promise<DraftResult> {
  const row = await drafts.findDraft(ctx.em, sid);
  if (!row) throw draftError.notFound("draft");
  return toDraftResult(row, await drafts.companyOfDraft(ctx.em, sid));
}

/** An invitation as clients see it: no internal user ids, no cap-table correlator. */
export function toInvitationResult(row: EntityInvitationRow): InvitationResult {
  return {
    sid: row.sid,
    draft_id: row.draft_id,
    entity_name: row.entity_name,
    inviter_dr_id: row.inviter_dr_id,
    inviter_name: row.inviter_name,
    invitee_email: row.invitee_email,
    invitee_dr_id: row.invitee_dr_id,
    role: row.role,
    share_units: row.share_units,
    status: row.status,
    document_version: row.document_version,
    signature_id: row.signature_id,
    invited_at: row.invited_at.toISOString(),
    responded_at: iso(row.responded_at),
    decline_reason: row.decline_reason,
    expires_at: row.expires_at.toISOString(),
  };
}

/** The invitations of the draft's current round: those sent by its latest finalize (none while in `draft`). */
export function currentRound(draft: EntityDraftRow, invitations: EntityInvitationRow[]): EntityInvitationRow[] {
  const since = draft.finalized_at;
  if (since === null) return [];
  return invitations.filter((i) => i.invited_at.getTime() >= since.getTime());
}
