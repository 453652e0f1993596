import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

type Handlers = GovernanceServiceHandlers<RpcContext>;

export const appointDirector: Handlers["appointDirector"] = async () => {
  throw RpcError.notImplemented("governanceservice.appoint_director");
};

export const removeDirector: Handlers["removeDirector"] = async () => {
  throw RpcError.notImplemented("governanceservice.remove_director");
};

export const grantSigningAuthority: Handlers["grantSigningAuthority"] = async () => {
  throw RpcError.notImplemented("governanceservice.grant_signing_authority");
};

export const revokeSigningAuthority: Handlers["revokeSigningAuthority"] = async () => {
  throw RpcError.notImplemented("governanceservice.revoke_signing_authority");
};
