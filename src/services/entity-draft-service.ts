import type { EntityDraftServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** EntityDraftService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const entityDraftService: EntityDraftServiceHandlers<RpcContext> = {
  async getFormSchema(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.get_form_schema");
  },
  async createDraft(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.create_draft");
  },
  async previewDocuments(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.preview_documents");
  },
  async finalizeDraft(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.finalize_draft");
  },
  async cancelDraft(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.cancel_draft");
  },
  async getDraftStatus(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.get_draft_status");
  },
  async listDrafts(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.list_drafts");
  },
  async getMyInvitations(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.get_my_invitations");
  },
  async getInvitationDocuments(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.get_invitation_documents");
  },
  async acceptInvitation(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.accept_invitation");
  },
  async declineInvitation(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.decline_invitation");
  },
  async checkCompletion(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.check_completion");
  },
  async payAndActivate(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.pay_and_activate");
  },
  async updateDraft(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.update_draft");
  },
  async createEvent(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.create_event");
  },
  async listEvents(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.list_events");
  },
  async expireDrafts(_ctx, _params) {
    throw RpcError.notImplemented("entitydraftservice.expire_drafts");
  },
};
