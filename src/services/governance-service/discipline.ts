import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

type Handlers = GovernanceServiceHandlers<RpcContext>;

export const issueNotice: Handlers["issueNotice"] = async () => {
  throw RpcError.notImplemented("governanceservice.issue_notice");
};

export const submitResponse: Handlers["submitResponse"] = async () => {
  throw RpcError.notImplemented("governanceservice.submit_response");
};

export const conductReview: Handlers["conductReview"] = async () => {
  throw RpcError.notImplemented("governanceservice.conduct_review");
};

export const issueDecision: Handlers["issueDecision"] = async () => {
  throw RpcError.notImplemented("governanceservice.issue_decision");
};

export const fileAppeal: Handlers["fileAppeal"] = async () => {
  throw RpcError.notImplemented("governanceservice.file_appeal");
};

export const enforceDecision: Handlers["enforceDecision"] = async () => {
  throw RpcError.notImplemented("governanceservice.enforce_decision");
};

export const listActions: Handlers["listActions"] = async () => {
  throw RpcError.notImplemented("governanceservice.list_actions");
};
