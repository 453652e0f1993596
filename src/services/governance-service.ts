import type { GovernanceServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import {
  appointDirector,
  grantSigningAuthority,
  removeDirector,
  revokeSigningAuthority,
} from "./governance-service/directors.ts";
import {
  conductReview,
  enforceDecision,
  fileAppeal,
  issueDecision,
  issueNotice,
  listActions,
  submitResponse,
} from "./governance-service/discipline.ts";
import { grantPlatinumMembership, proposePlatinumUpgrade } from "./governance-service/platinum.ts";
import {
  castVote,
  createProposal,
  executeProposal,
  getProposal,
  getVotingPower,
  listProposals,
  listResolutions,
  tallyVotes,
} from "./governance-service/proposals.ts";

/**
 * GovernanceService (issue 17): one file per group of use cases (governance-service/proposals.ts, governance-service/discipline.ts, governance-service/directors.ts).
 * Codegen adds a stub here for each new method.
 */
export const governanceService: GovernanceServiceHandlers<RpcContext> = {
  createProposal,
  getProposal,
  listProposals,
  castVote,
  getVotingPower,
  tallyVotes,
  executeProposal,
  listResolutions,
  issueNotice,
  submitResponse,
  conductReview,
  issueDecision,
  fileAppeal,
  enforceDecision,
  listActions,
  appointDirector,
  removeDirector,
  grantSigningAuthority,
  revokeSigningAuthority,
  proposePlatinumUpgrade,
  grantPlatinumMembership,
};
