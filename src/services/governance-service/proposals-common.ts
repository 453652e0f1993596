import type { ProposalRow, ResolutionRow, VoteRow } from "../../../generated/entities.ts";
import type { ProposalResult, ResolutionKind, ResolutionResult, VoteResult } from "../../../generated/types.ts";
import { companyStanding } from "../../auth/access.ts";
import { powerSnapshot } from "../../domain/proposals.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { findCompany, requireCompanyOperable } from "../../repos/companies.ts";
import { rolesOfCompanyAt } from "../../repos/company-roles.ts";
import { findProposal } from "../../repos/proposals.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/** Shared pieces of the proposal use cases: the error factory, role checks on the proposal's company, mappers. */

export const governanceError = errorsFor("GovernanceService", "GovernanceError");

export const refused = (r: Refusal<"InvalidState" | "InvalidInput" | "Forbidden">) =>
  governanceError(r.refusal, r.message, r.details);

/** The status guard on a company write (InvalidState with details.status when the company does not operate). */
export const requireOperable = (ctx: RpcContext, companyId: string) =>
  requireCompanyOperable(ctx.em, companyId, (r) => governanceError(r.refusal, r.message, r.details));

/**
 * The caller's standing in a company the handler read from a record (docs/authorization.md "handler" rows): no
 * current role is NotFound (no existence leak), a role short of `required` is Forbidden; an administrator's
 * session passes.
 */
export async function requireRoleIn(ctx: RpcContext, companyId: string, required: "member" | "director") {
  const standing = await companyStanding(ctx.em, requireCaller(ctx), companyId, required, ctx.now());
  if (standing === "none") throw governanceError.notFound("proposal");
  if (standing === "short") throw governanceError("Forbidden", `needs the ${required} role in the proposal's company`);
}

/** The proposal and the caller's standing in its company (NotFound for strangers, as for unknown proposals). */
export async function loadProposalFor(
  ctx: RpcContext,
  proposalId: string,
  required: "member" | "director",
): Promise<ProposalRow> {
  const row = await findProposal(ctx.em, proposalId);
  if (!row) throw governanceError.notFound("proposal");
  await requireRoleIn(ctx, row.company_id, required);
  return row;
}

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
 * The company's voting power now for `kind` (a board proposal counts directors; ordinary and special count by the
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
