import type { EntityDraftRow, EntityInvitationRow } from "../../../generated/entities.ts";
import type { EntityDraftServiceHandlers } from "../../../generated/handlers/index.ts";
import type { Address, ShareholderData } from "../../../generated/types.ts";
import { creatorRowIndex, moveRefusal, normalEmail } from "../../domain/entity-drafts.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { singleLine } from "../../domain/text-render.ts";
import * as drafts from "../../repos/entity-drafts.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { registerCompany } from "../shared/company-registration.ts";
import { currentRound, draftError, draftResult, loadOwnDraft, refused } from "./common.ts";
import { postInbox } from "./notices.ts";

type H = EntityDraftServiceHandlers<RpcContext>;

/**
 * The cap table with every holder's resident id bound: the creator's row to the creator's resident, each other row to
 * the invitee who accepted the invitation carrying its cap_table_email in the current round. A row left unbound means
 * the signatures do not match the cap table (InvalidState).
 */
function boundCapTable(
  draft: EntityDraftRow,
  accepted: EntityInvitationRow[],
  creatorEmail: string,
): ShareholderData[] {
  const byEmail = new Map(accepted.map((i) => [i.cap_table_email, i.invitee_dr_id]));
  const own = creatorRowIndex(draft.shareholders, creatorEmail, draft.creator_dr_id);
  return draft.shareholders.map((row, i) => {
    const residentId = i === own ? draft.creator_dr_id : byEmail.get(normalEmail(row.email));
    if (residentId === undefined)
      throw draftError("InvalidState", `cap-table row ${i} has no accepted invitation`, {
        field: `shareholders[${i}]`,
      });
    return { ...row, resident_id: residentId };
  });
}

/** The registered address from the form's fields. */
function addressOf(templateData: string): Address {
  const data = JSON.parse(templateData) as Record<string, unknown>;
  const text = (key: string) => (typeof data[key] === "string" ? (data[key] as string).trim() : "");
  return {
    line1: text("registered_address"),
    line2: null,
    city: text("registered_city"),
    region: null,
    postal_code: null,
    country: text("registered_country").toUpperCase(),
  };
}

function profileOf(templateData: string) {
  const data = JSON.parse(templateData) as Record<string, unknown>;
  return {
    ...(typeof data["purpose"] === "string" ? { description: data["purpose"] } : {}),
    ...(typeof data["industry"] === "string" ? { industry: data["industry"] } : {}),
  };
}

/**
 * pay_and_activate: `all_signed -> paid -> active` in one transaction. The registration (pricing snapshot, wallet
 * debit, company row with draft_id, roles) is the shared registerCompany; any refusal rolls the whole call back.
 */
export const payAndActivate: H["payAndActivate"] = async (ctx, { draft_id, subscription_plan }) => {
  const caller = requireCaller(ctx);
  const draft = await loadOwnDraft(ctx, draft_id);
  const state = moveRefusal("pay", draft.status);
  if (state) throw refused(state);
  const round = currentRound(draft, await drafts.invitationsOfDraft(ctx.em, draft.sid));
  const holders = boundCapTable(
    draft,
    round.filter((i) => i.status === "accepted" && i.document_version === draft.document_version),
    caller.email,
  );
  const now = ctx.now();
  const paid = await drafts.updateDraftIf(
    ctx.em,
    draft.sid,
    ["all_signed"],
    { status: "paid", paid_at: now, shareholders: holders, updated_at: now },
    draft.document_version,
  );
  if (paid === 0) throw draftError("InvalidState", "the draft changed meanwhile; reload it");
  const registered = await registerCompany(ctx, {
    owner: { user_id: draft.creator_user_id, partner_id: caller.partnerId, owner_resident_id: null },
    payer: { wallet_user_id: caller.userId },
    company: {
      name: draft.entity_name,
      company_type: draft.company_type,
      address: addressOf(draft.template_data),
      profile: { ...profileOf(draft.template_data), due_process_executors: draft.due_process_executors },
    },
    plan: subscription_plan,
    founder_resident_id: draft.creator_dr_id,
    holders,
    draft_id: draft.sid,
    created_by: draft.creator_dr_id,
  });
  if (isRefusal(registered)) throw draftError(registered.refusal, registered.message, registered.details);
  await drafts.updateDraftIf(ctx.em, draft.sid, ["paid"], { status: "active", updated_at: now });
  const title = `${singleLine(draft.entity_name)} is registered`;
  const body = `${singleLine(draft.entity_name)} is registered as ${registered.company.company_id}.`;
  for (const userId of new Set([draft.creator_user_id, ...round.map((i) => i.invitee_user_id)]))
    postInbox(ctx.em, userId, title, body, now);
  return draftResult(ctx, draft.sid);
};
