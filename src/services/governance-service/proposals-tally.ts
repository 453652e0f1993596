import type { ProposalRow, ResolutionRow } from "../../../generated/entities.ts";
import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import { boardMembers } from "../../domain/directors.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { executeRefusal, formatResolutionNumber, tally, tallyRefusal } from "../../domain/proposals.ts";
import { sumUnits } from "../../domain/units.ts";
import { rolesOfCompanyAt } from "../../repos/company-roles.ts";
import { takeNumber } from "../../repos/counters.ts";
import { settleDividendVotes } from "../../repos/dividends.ts";
import { writeAudience } from "../../repos/document-audiences.ts";
import { insertResolution, listResolutionsOf, lockProposal, moveProposal, voteSums } from "../../repos/proposals.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { governanceError, refused, toResolutionResult } from "./common.ts";

type Handlers = GovernanceServiceHandlers<RpcContext>;

/** Every member tier may read a resolution (DocumentAudience classification). */
export const RESOLUTION_CLASSIFICATION: readonly string[] = [
  "director",
  "founder",
  "shareholder",
  "founding_member",
  "platinum_member",
];
export const RESOLUTION_AUDIENCE_RULE = "governance.resolution.members";

/**
 * tally_votes: a director (the dispatcher's `x-target`, with the company's status), on an `active` proposal, after voting_ends_at or once every unit of the snapshot power
 * voted. Sums the votes (each carrying its snapshot power), decides by src/domain/proposals.ts `tally`, and moves
 * the proposal active -> passed / rejected in one conditional update (a concurrent tally or expiry loses).
 */
export const tallyVotes: Handlers["tallyVotes"] = async (ctx) => {
  const proposal = ctx.target.row;
  await lockProposal(ctx.em, proposal.sid);
  const sums = await voteSums(ctx.em, proposal.sid);
  const now = ctx.now();
  const snapshot = proposal.total_issued_power_snapshot;
  const totalVoted = sumUnits(sums.votesFor, sums.votesAgainst, sums.votesAbstain);
  const refusal = tallyRefusal({
    status: proposal.status,
    now,
    votingEndsAt: proposal.voting_ends_at,
    snapshot,
    totalVoted,
  });
  if (refusal) throw refused(refusal);
  const quorum = Number(proposal.quorum_percentage);
  const threshold = Number(proposal.passing_threshold);
  const outcome = tally({
    kind: proposal.kind,
    snapshot,
    quorumPercentage: quorum,
    passingThreshold: threshold,
    ...sums,
  });
  const moved = await moveProposal(ctx.em, proposal.sid, "active", {
    status: outcome.status,
    votes_for: sums.votesFor,
    votes_against: sums.votesAgainst,
    votes_abstain: sums.votesAbstain,
    total_voted: outcome.totalVoted,
    updated_at: now,
  });
  if (!moved) throw governanceError("InvalidState", "the proposal is no longer active");
  await settleDividendVotes(ctx.em, [proposal.sid], outcome.passed, now);
  return {
    proposal_id: proposal.sid,
    status: outcome.status,
    votes_for: sums.votesFor,
    votes_against: sums.votesAgainst,
    votes_abstain: sums.votesAbstain,
    total_voted: outcome.totalVoted,
    total_issued_power_snapshot: snapshot,
    quorum_percentage: quorum,
    passing_threshold: threshold,
    turnout_percentage: outcome.turnoutPercentage,
    for_percentage: outcome.forPercentage,
    quorum_reached: outcome.quorumReached,
    passed: outcome.passed,
    tallied_at: now.toISOString(),
  };
};

/** Whether the resident holds the director (or founder) role in the company now (an executor of a resolution). */
export async function holdsDirectorRole(ctx: RpcContext, companyId: string, residentId: string): Promise<boolean> {
  return boardMembers(await rolesOfCompanyAt(ctx.em, companyId, ctx.now())).includes(residentId);
}

/**
 * A `passed` proposal becomes `executed` once (conditional update), with a Resolution numbered per company and year
 * (counter `RES-<company>-<year>`) and its DocumentAudience row; InvalidState when it is not (or no longer) passed.
 * Shared by execute_proposal and grant_platinum_membership.
 */
export async function executeAsResolution(
  ctx: RpcContext,
  proposal: ProposalRow,
  executorId: string,
  notes: string | null,
): Promise<ResolutionRow> {
  const bad = executeRefusal(proposal.status);
  if (bad) throw refused(bad);
  const now = ctx.now();
  const resolutionSid = uuidv7(now);
  const moved = await moveProposal(ctx.em, proposal.sid, "passed", {
    status: "executed",
    resolution_id: resolutionSid,
    updated_at: now,
  });
  if (!moved) throw governanceError("InvalidState", "the proposal is no longer passed", { status: "executed" });
  const year = now.getUTCFullYear();
  const n = await takeNumber(ctx.em, `RES-${proposal.company_id}-${year}`, now);
  const row: ResolutionRow = {
    sid: resolutionSid,
    company_id: proposal.company_id,
    proposal_id: proposal.sid,
    resolution_number: formatResolutionNumber(year, n),
    kind: proposal.kind,
    title: proposal.title,
    content: proposal.description,
    votes_for: proposal.votes_for,
    votes_against: proposal.votes_against,
    votes_abstain: proposal.votes_abstain,
    executed_by: executorId,
    executed_at: now,
    notes,
    created_at: now,
    updated_at: now,
  };
  await insertResolution(ctx.em, row);
  writeAudience(
    ctx.em,
    {
      documentRef: row.sid,
      documentType: "resolution",
      companyId: row.company_id,
      classification: RESOLUTION_CLASSIFICATION,
      rule: RESOLUTION_AUDIENCE_RULE,
      relevantFrom: now,
      createdBy: executorId,
    },
    now,
  );
  return row;
}

/**
 * execute_proposal: the dispatcher checked the caller's director role, the company's status, that the caller may
 * act as executor_id (caller binding) and its status (`x-acts-as`); the recorded executor must itself hold the
 * director (or founder) role now. A platinum upgrade is executed by grant_platinum_membership, which grants what it
 * decided in the same step (so no upgrade is ever executed without its grant).
 */
export const executeProposal: Handlers["executeProposal"] = async (ctx, params) => {
  const proposal = ctx.target.row;
  if (!(await holdsDirectorRole(ctx, proposal.company_id, params.executor_id)))
    throw governanceError("Forbidden", "executor_id must hold the director (or founder) role in the company");
  if (proposal.platinum_candidate_id !== null)
    throw governanceError("InvalidState", "a platinum upgrade is executed by grant_platinum_membership", {
      reason: "platinum_upgrade",
    });
  return toResolutionResult(await executeAsResolution(ctx, proposal, params.executor_id, params.notes ?? null));
};

export const listResolutions: Handlers["listResolutions"] = async (ctx, { company_id }) => {
  const rows = await listResolutionsOf(ctx.em, company_id);
  return { items: rows.map(toResolutionResult) };
};
