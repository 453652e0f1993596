import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import { isCoopType } from "../../domain/company-registration.ts";
import {
  grantDecision,
  memberPower,
  PLATINUM_ROLE,
  upgradeDescription,
  upgradeRefusal,
} from "../../domain/platinum.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { lockCompanyStatus } from "../../repos/companies.ts";
import { openRole, rolesOfCompanyAt } from "../../repos/company-roles.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { governanceError, toProposalResult } from "./common.ts";
import { openProposal, proposerOf } from "./proposals.ts";
import { executeAsResolution, holdsDirectorRole } from "./proposals-tally.ts";

/**
 * Platinum membership of a cooperative (issue 30, docs/decisions.md "Corporate holders and cooperative membership
 * (issue 30)"): a member proposes a member's upgrade (a `special` proposal naming the candidate), the members vote,
 * a director tallies, and a director grants it: the resolution is executed and the `platinum_member` role opened in
 * one transaction. Rules in src/domain/platinum.ts.
 */

type Handlers = GovernanceServiceHandlers<RpcContext>;

/** The candidate's open roles in the company now. */
async function openRolesOf(ctx: RpcContext, companyId: string, residentId: string): Promise<string[]> {
  const roles = await rolesOfCompanyAt(ctx.em, companyId, ctx.now());
  return roles.filter((r) => r.subject_id === residentId).map((r) => r.role);
}

export const proposePlatinumUpgrade: Handlers["proposePlatinumUpgrade"] = async (ctx, p) => {
  const company = ctx.target.row;
  const bad = upgradeRefusal({
    cooperative: isCoopType(company.company_type),
    candidateRoles: await openRolesOf(ctx, p.company_id, p.resident_id),
  });
  if (bad) throw governanceError(bad.refusal, bad.message, bad.details);
  const proposerId = await proposerOf(ctx, p.company_id, "special");
  const row = await openProposal(ctx, {
    companyId: p.company_id,
    proposerId,
    title: `Platinum membership for ${p.resident_id}`,
    description: p.description?.trim() ? p.description : upgradeDescription(p.resident_id),
    category: "governance",
    kind: "special",
    votingDays: p.voting_days,
    allowAbstention: p.allow_abstention ?? true,
    platinumCandidateId: p.resident_id,
  });
  if ("refusal" in row) {
    if (row.refusal === "NotFound") throw governanceError.notFound("company");
    throw governanceError(row.refusal, row.message, row.details);
  }
  return toProposalResult(row);
};

/**
 * grant_platinum_membership: the company row is locked first, so grants of one cooperative are serialized (two
 * passed upgrades of one member cannot both open a platinum role); the proposal's passed -> executed move is
 * conditional, so one proposal grants once.
 */
export const grantPlatinumMembership: Handlers["grantPlatinumMembership"] = async (ctx, p) => {
  const proposal = ctx.target.row;
  if (!(await holdsDirectorRole(ctx, proposal.company_id, p.granted_by)))
    throw governanceError("Forbidden", "granted_by must hold the director role in the company");
  await lockCompanyStatus(ctx.em, proposal.company_id);
  const named = proposal.platinum_candidate_id;
  const before = named ? await openRolesOf(ctx, proposal.company_id, named) : [];
  const decided = grantDecision({ candidateId: named, status: proposal.status, candidateRoles: before });
  if (isRefusal(decided)) throw governanceError(decided.refusal, decided.message, decided.details);
  const candidate = decided.candidateId;
  const resolution = await executeAsResolution(ctx, proposal, p.granted_by, p.notes ?? null);
  const now = ctx.now();
  const role = await openRole(ctx.em, {
    companyId: proposal.company_id,
    subjectId: candidate,
    role: PLATINUM_ROLE,
    classificationScope: [PLATINUM_ROLE],
    validFrom: now,
    createdBy: p.granted_by,
  });
  return {
    proposal_id: proposal.sid,
    resolution_id: resolution.sid,
    resolution_number: resolution.resolution_number,
    company_id: proposal.company_id,
    resident_id: candidate,
    role_id: role.sid,
    granted_at: now.toISOString(),
    voting_power: memberPower([...before, PLATINUM_ROLE]),
  };
};
