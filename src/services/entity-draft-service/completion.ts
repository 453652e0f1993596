import type { EntityManager } from "@mikro-orm/postgresql";
import type { EntityDraftServiceHandlers } from "../../../generated/handlers/index.ts";
import { completes, nextStep } from "../../domain/entity-drafts.ts";
import { singleLine } from "../../domain/text-render.ts";
import * as drafts from "../../repos/entity-drafts.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { currentRound, draftError, loadVisibleDraft } from "./common.ts";
import { postInbox } from "./notices.ts";

type H = EntityDraftServiceHandlers<RpcContext>;

/**
 * check_completion: a pending draft whose every required signature of the current version is in, and none of whose
 * current invitations was declined, moves to all_signed (one conditional update); a paid draft whose company exists
 * becomes active. Anything else changes nothing, so repeating it is harmless.
 */
export const checkCompletion: H["checkCompletion"] = async (ctx, { draft_id }) => {
  const draft = await loadVisibleDraft(ctx, draft_id);
  const now = ctx.now();
  const companyId = await drafts.companyOfDraft(ctx.em, draft.sid);
  const round = currentRound(draft, await drafts.invitationsOfDraft(ctx.em, draft.sid));
  const declined = round.filter((i) => i.status === "rejected").length;
  if (completes(draft, declined) && (await drafts.markAllSigned(ctx.em, draft.sid, draft.document_version, now)) > 0) {
    postInbox(
      ctx.em,
      draft.creator_user_id,
      `${singleLine(draft.entity_name)}: every signature is in`,
      `Every invitee signed the formation documents of ${singleLine(draft.entity_name)}. Pay to register it (pay_and_activate).`,
      now,
    );
  }
  if (draft.status === "paid" && companyId !== null)
    await drafts.updateDraftIf(ctx.em, draft.sid, ["paid"], { status: "active", updated_at: now });
  const after = await drafts.findDraft(ctx.em, draft.sid);
  if (!after) throw draftError.notFound("draft");
  return {
    draft_id: after.sid,
    status: after.status,
    complete:
      after.completed_signatures === after.total_required_signatures && declined === 0 && after.finalized_at !== null,
    completed_signatures: after.completed_signatures,
    total_required_signatures: after.total_required_signatures,
    completed_at: after.completed_at === null ? null : after.completed_at.toISOString(),
    company_id: companyId,
    next_step: nextStep(after.status),
  };
};

/** Drafts in draft or pending_signatures whose deadline has come move to expired, with their pending invitations. */
export async function sweepExpiredDrafts(
  em: EntityManager,
  now: Date,
): Promise<{ draftIds: string[]; invitations: number }> {
  const draftIds = await drafts.expireDueDrafts(em, now);
  const invitations = await drafts.expirePendingInvitations(em, draftIds, now);
  return { draftIds, invitations };
}

export const expireDrafts: H["expireDrafts"] = async (ctx) => {
  const now = ctx.now();
  const { draftIds, invitations } = await sweepExpiredDrafts(ctx.em, now);
  return {
    expired_drafts: draftIds.length,
    expired_invitations: invitations,
    draft_ids: draftIds,
    swept_at: now.toISOString(),
  };
};
