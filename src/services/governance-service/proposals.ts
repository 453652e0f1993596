import type { ProposalRow } from "../../../generated/entities.ts";
import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import type { ProposalCategory, ResolutionKind } from "../../../generated/types.ts";
import { ownedResidentIds } from "../../auth/access.ts";
import { isBoardRole } from "../../domain/directors.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { creationRefusal, votingEndsAt } from "../../domain/proposals.ts";
import { type Refusal, refuse } from "../../domain/refusal.ts";
import { rolesOfCompanyAt } from "../../repos/company-roles.ts";
import { insertProposal, listProposalsOf, votesOf } from "../../repos/proposals.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { currentPower, governanceError, refused, toProposalResult, toVoteResult } from "./common.ts";

export { executeProposal, listResolutions, tallyVotes } from "./proposals-tally.ts";
export { castVote, getVotingPower } from "./proposals-votes.ts";

type Handlers = GovernanceServiceHandlers<RpcContext>;

/** What openProposal needs: the proposal's fields and the proposing resident (checked by the caller). */
export interface OpenProposalInput {
  companyId: string;
  proposerId: string;
  title: string;
  description: string;
  category: ProposalCategory;
  kind: ResolutionKind;
  votingDays: number;
  allowAbstention: boolean;
  /** A platinum upgrade proposal's candidate (propose_platinum_upgrade); absent on every other proposal. */
  platinumCandidateId?: string;
}

export type OpenProposalRefusal = Refusal<"NotFound" | "InvalidInput" | "InvalidState">;

/**
 * Opens a proposal with the rules of create_proposal (exported for other services, e.g. a dividend vote):
 * validates title and voting_days, stamps quorum and passing percentages from the deployment configuration for the
 * kind, and records the power snapshot (total and each holder's power) with it. Who may propose and the company's
 * status are the calling method's `x-target` (role, `operable`: create_proposal, initiate_dividend), checked by the
 * dispatcher. Answers the new row or a refusal (nothing written) for the caller to map to its own error type; a
 * company without voting power for the kind is InvalidState.
 */
export async function openProposal(
  ctx: RpcContext,
  input: OpenProposalInput,
): Promise<ProposalRow | OpenProposalRefusal> {
  const bad = creationRefusal({ title: input.title, votingDays: input.votingDays });
  if (bad) return bad;
  const power = await currentPower(ctx, input.companyId, input.kind);
  if (!power) return refuse("NotFound", "company not found");
  if (!(power.snapshot.total > 0))
    return refuse(
      "InvalidState",
      `the company has no ${input.kind === "board" ? "directors or founders" : "voting power"} to vote`,
    );
  const now = ctx.now();
  const t = ctx.config.proposals.thresholds[input.kind];
  const row: ProposalRow = {
    sid: uuidv7(now),
    company_id: input.companyId,
    title: input.title.trim(),
    description: input.description,
    category: input.category,
    kind: input.kind,
    status: "active",
    proposer_id: input.proposerId,
    voting_starts_at: now,
    voting_ends_at: votingEndsAt(now, input.votingDays),
    quorum_percentage: t.quorum,
    passing_threshold: t.passing,
    total_issued_power_snapshot: power.snapshot.total,
    allow_abstention: input.allowAbstention,
    votes_for: 0,
    votes_against: 0,
    votes_abstain: 0,
    total_voted: 0,
    resolution_id: null,
    platinum_candidate_id: input.platinumCandidateId ?? null,
    created_at: now,
    updated_at: now,
  };
  await insertProposal(ctx.em, row, power.snapshot.powers);
  return row;
}

/**
 * The proposing resident: one the caller owns holding a current role in the company (for a board proposal a
 * director or founder role); Forbidden when there is none.
 */
export async function proposerOf(ctx: RpcContext, companyId: string, kind: ResolutionKind): Promise<string> {
  const owned = new Set(await ownedResidentIds(ctx.em, requireCaller(ctx)));
  const roles = (await rolesOfCompanyAt(ctx.em, companyId, ctx.now())).filter((r) => owned.has(r.subject_id));
  const fit = kind === "board" ? roles.filter((r) => isBoardRole(r.role)) : roles;
  const chosen = fit[0];
  if (!chosen) {
    throw governanceError(
      "Forbidden",
      kind === "board"
        ? "a board proposal needs a resident of yours holding the director or founder role"
        : "the proposer must be a resident of yours holding a role in the company",
    );
  }
  return chosen.subject_id;
}

export const createProposal: Handlers["createProposal"] = async (ctx, params) => {
  const bad = creationRefusal({ title: params.title, votingDays: params.voting_days });
  if (bad) throw refused(bad);
  const proposerId = await proposerOf(ctx, params.company_id, params.kind);
  const row = await openProposal(ctx, {
    companyId: params.company_id,
    proposerId,
    title: params.title,
    description: params.description,
    category: params.category,
    kind: params.kind,
    votingDays: params.voting_days,
    allowAbstention: params.allow_abstention,
  });
  if ("refusal" in row) {
    if (row.refusal === "NotFound") throw governanceError.notFound("company");
    throw governanceError(row.refusal, row.message, row.details);
  }
  return toProposalResult(row);
};

export const getProposal: Handlers["getProposal"] = async (ctx) => {
  const row = ctx.target.row;
  const votes = await votesOf(ctx.em, row.sid);
  return { ...toProposalResult(row), votes: votes.map(toVoteResult) };
};

export const listProposals: Handlers["listProposals"] = async (ctx, { company_id, status }) => {
  const rows = await listProposalsOf(ctx.em, company_id, status ?? undefined);
  return { items: rows.map(toProposalResult) };
};
