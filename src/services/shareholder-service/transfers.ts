import type { ShareholderServiceHandlers } from "../../../generated/handlers/index.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

type Handlers = ShareholderServiceHandlers<RpcContext>;

export const initiateTransfer: Handlers["initiateTransfer"] = async () => {
  throw RpcError.notImplemented("shareholderservice.initiate_transfer");
};

export const approveTransfer: Handlers["approveTransfer"] = async () => {
  throw RpcError.notImplemented("shareholderservice.approve_transfer");
};

export const completeTransfer: Handlers["completeTransfer"] = async () => {
  throw RpcError.notImplemented("shareholderservice.complete_transfer");
};

export const cancelTransfer: Handlers["cancelTransfer"] = async () => {
  throw RpcError.notImplemented("shareholderservice.cancel_transfer");
};

export const listTransfers: Handlers["listTransfers"] = async () => {
  throw RpcError.notImplemented("shareholderservice.list_transfers");
};
