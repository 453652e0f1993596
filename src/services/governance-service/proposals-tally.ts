import type { ResolutionRow } from "../../../generated/entities.ts";
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

/**
 * execute_proposal: a `passed` proposal becomes `executed` once (conditional update), with a Resolution numbered
 * per company and year (counter `RES-<company>-<year>`) and its DocumentAudience row. The dispatcher checked the
 * caller's director role, the company's status, that the caller may act as executor_id (caller binding) and its
 * status (`x-acts-as`); the recorded executor must itself hold the director (or founder) role now.
 */
export const executeProposal: Handlers["executeProposal"] = async (ctx, params) => {
  const proposal = ctx.target.row;
  const now = ctx.now();
  const roles = await rolesOfCompanyAt(ctx.em, proposal.company_id, now);
  if (!boardMembers(roles).includes(params.executor_id))
    throw governanceError("Forbidden", "executor_id must hold the director (or founder) role in the company");
  const bad = executeRefusal(proposal.status);
  if (bad) throw refused(bad);
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
    executed_by: params.executor_id,
    executed_at: now,
    notes: params.notes ?? null,
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
      createdBy: params.executor_id,
    },
    now,
  );
  return toResolutionResult(row);
};

export const listResolutions: Handlers["listResolutions"] = async (ctx, { company_id }) => {
  const rows = await listResolutionsOf(ctx.em, company_id);
  return { items: rows.map(toResolutionResult) };
};
