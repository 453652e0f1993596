import type { GovernanceServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** GovernanceService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const governanceService: GovernanceServiceHandlers<RpcContext> = {
  async createProposal(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.create_proposal");
  },
  async getProposal(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.get_proposal");
  },
  async listProposals(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.list_proposals");
  },
  async castVote(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.cast_vote");
  },
  async getVotingPower(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.get_voting_power");
  },
  async tallyVotes(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.tally_votes");
  },
  async executeProposal(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.execute_proposal");
  },
  async listResolutions(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.list_resolutions");
  },
  async issueNotice(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.issue_notice");
  },
  async submitResponse(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.submit_response");
  },
  async conductReview(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.conduct_review");
  },
  async issueDecision(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.issue_decision");
  },
  async fileAppeal(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.file_appeal");
  },
  async enforceDecision(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.enforce_decision");
  },
  async listActions(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.list_actions");
  },
  async appointDirector(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.appoint_director");
  },
  async removeDirector(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.remove_director");
  },
  async grantSigningAuthority(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.grant_signing_authority");
  },
  async revokeSigningAuthority(_ctx, _params) {
    throw RpcError.notImplemented("governanceservice.revoke_signing_authority");
  },
};
