import type { EntityDraftServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { checkCompletion, expireDrafts } from "./entity-draft-service/completion.ts";
import {
  createDraft,
  getDraftStatus,
  getFormSchema,
  listDrafts,
  previewDocuments,
  updateDraft,
} from "./entity-draft-service/drafts.ts";
import { createEvent, listEvents } from "./entity-draft-service/events.ts";
import {
  acceptInvitation,
  declineInvitation,
  getInvitationDocuments,
  getMyInvitations,
} from "./entity-draft-service/invitations.ts";
import { cancelDraft, finalizeDraft, reopenDraft } from "./entity-draft-service/lifecycle.ts";
import { payAndActivate } from "./entity-draft-service/pay.ts";

/**
 * EntityDraftService (issue 16): formation drafts (drafts.ts), finalize / reopen / cancel (lifecycle.ts), invitations
 * and signatures (invitations.ts), completion and the expiry sweep (completion.ts), payment and activation (pay.ts),
 * cooperative events (events.ts); rules in src/domain/entity-drafts.ts, formation-forms.ts, formation-documents.ts.
 * Codegen adds a stub here for each new method.
 */
export const entityDraftService: EntityDraftServiceHandlers<RpcContext> = {
  getFormSchema,
  createDraft,
  previewDocuments,
  finalizeDraft,
  cancelDraft,
  reopenDraft,
  getDraftStatus,
  listDrafts,
  getMyInvitations,
  getInvitationDocuments,
  acceptInvitation,
  declineInvitation,
  checkCompletion,
  payAndActivate,
  updateDraft,
  createEvent,
  listEvents,
  expireDrafts,
};
