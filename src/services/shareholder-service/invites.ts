import type { ShareholderServiceHandlers } from "../../../generated/handlers/index.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

type Handlers = ShareholderServiceHandlers<RpcContext>;

export const inviteShareholder: Handlers["inviteShareholder"] = async () => {
  throw RpcError.notImplemented("shareholderservice.invite_shareholder");
};

export const acceptInvite: Handlers["acceptInvite"] = async () => {
  throw RpcError.notImplemented("shareholderservice.accept_invite");
};

export const rejectInvite: Handlers["rejectInvite"] = async () => {
  throw RpcError.notImplemented("shareholderservice.reject_invite");
};

export const listInvites: Handlers["listInvites"] = async () => {
  throw RpcError.notImplemented("shareholderservice.list_invites");
};
