import type { ProposalRow, ResolutionRow, VoteRow } from "../../../generated/entities.ts";
import type { ProposalResult, ResolutionKind, ResolutionResult, VoteResult } from "../../../generated/types.ts";
import { powerSnapshot } from "../../domain/proposals.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { findCompany } from "../../repos/companies.ts";
import { rolesOfCompanyAt } from "../../repos/company-roles.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/**
 * Shared pieces of the proposal use cases: the error factory and the mappers. The proposal (or company) a method
 * acts on, the caller's role in its company and the company's status are the dispatcher's (`x-target`): handlers
 * start from `ctx.target.row`.
 */

export const governanceError = errorsFor("GovernanceService", "GovernanceError");

export const refused = (r: Refusal<"InvalidState" | "InvalidInput" | "Forbidden">) =>
  governanceError(r.refusal, r.message, r.details);

export function toProposalResult(row: ProposalRow): ProposalResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    title: row.title,
    description: row.description,
    category: row.category,
    kind: row.kind,
    status: row.status,
    proposer_id: row.proposer_id,
    voting_starts_at: row.voting_starts_at.toISOString(),
    voting_ends_at: row.voting_ends_at.toISOString(),
    quorum_percentage: Number(row.quorum_percentage),
    passing_threshold: Number(row.passing_threshold),
    total_issued_power_snapshot: row.total_issued_power_snapshot,
    allow_abstention: row.allow_abstention,
    votes_for: row.votes_for,
    votes_against: row.votes_against,
    votes_abstain: row.votes_abstain,
    total_voted: row.total_voted,
    resolution_id: row.resolution_id,
    platinum_candidate_id: row.platinum_candidate_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toVoteResult(row: VoteRow): VoteResult {
  return {
    sid: row.sid,
    proposal_id: row.proposal_id,
    company_id: row.company_id,
    voter_id: row.voter_id,
    vote_value: row.vote_value,
    voting_power: row.voting_power,
    comment: row.comment,
    created_at: row.created_at.toISOString(),
  };
}

export function toResolutionResult(row: ResolutionRow): ResolutionResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    proposal_id: row.proposal_id,
    resolution_number: row.resolution_number,
    kind: row.kind,
    title: row.title,
    content: row.content,
    votes_for: row.votes_for,
    votes_against: row.votes_against,
    votes_abstain: row.votes_abstain,
    executed_by: row.executed_by,
    executed_at: row.executed_at.toISOString(),
    notes: row.notes,
  };
}

/**
 * The company's voting power now for `kind` (a board proposal counts the board, directors and founders; ordinary and special count by the
 * company's voting model). Null for an unknown company.
 */
export async function currentPower(ctx: RpcContext, companyId: string, kind: ResolutionKind) {
  const company = await findCompany(ctx.em, companyId);
  if (!company) return null;
  const roles = await rolesOfCompanyAt(ctx.em, companyId, ctx.now());
  return {
    model: company.voting_model,
    snapshot: powerSnapshot(kind, company.voting_model, company.shareholders, roles),
  };
}
