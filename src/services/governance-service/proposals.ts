import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

type Handlers = GovernanceServiceHandlers<RpcContext>;

export const createProposal: Handlers["createProposal"] = async () => {
  throw RpcError.notImplemented("governanceservice.create_proposal");
};

export const getProposal: Handlers["getProposal"] = async () => {
  throw RpcError.notImplemented("governanceservice.get_proposal");
};

export const listProposals: Handlers["listProposals"] = async () => {
  throw RpcError.notImplemented("governanceservice.list_proposals");
};

export const castVote: Handlers["castVote"] = async () => {
  throw RpcError.notImplemented("governanceservice.cast_vote");
};

export const getVotingPower: Handlers["getVotingPower"] = async () => {
  throw RpcError.notImplemented("governanceservice.get_voting_power");
};

export const tallyVotes: Handlers["tallyVotes"] = async () => {
  throw RpcError.notImplemented("governanceservice.tally_votes");
};

export const executeProposal: Handlers["executeProposal"] = async () => {
  throw RpcError.notImplemented("governanceservice.execute_proposal");
};

export const listResolutions: Handlers["listResolutions"] = async () => {
  throw RpcError.notImplemented("governanceservice.list_resolutions");
};
