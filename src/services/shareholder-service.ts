import type { ShareholderServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** ShareholderService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const shareholderService: ShareholderServiceHandlers<RpcContext> = {
  async inviteShareholder(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.invite_shareholder");
  },
  async acceptInvite(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.accept_invite");
  },
  async rejectInvite(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.reject_invite");
  },
  async listInvites(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.list_invites");
  },
  async initiateTransfer(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.initiate_transfer");
  },
  async approveTransfer(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.approve_transfer");
  },
  async completeTransfer(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.complete_transfer");
  },
  async cancelTransfer(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.cancel_transfer");
  },
  async listTransfers(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.list_transfers");
  },
  async initiateDividend(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.initiate_dividend");
  },
  async executeDividend(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.execute_dividend");
  },
  async listDividends(_ctx, _params) {
    throw RpcError.notImplemented("shareholderservice.list_dividends");
  },
};
