import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { VoteRow } from "../../../generated/entities.ts";
import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { voteRefusal } from "../../domain/proposals.ts";
import { insertVote, lockProposal, snapshotPower } from "../../repos/proposals.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { currentPower, governanceError, refused, toVoteResult } from "./common.ts";

type Handlers = GovernanceServiceHandlers<RpcContext>;

/**
 * cast_vote: the dispatcher checked the proposal and the caller's membership of its company, the company's status,
 * the caller binding of voter_id (a resident the caller owns or acts for), its status and the password re-entry. The
 * proposal row is
 * locked for the call, so votes and a tally of one proposal run one after the other; the unique index
 * (proposal_id, voter_id) refuses a second vote even when two arrive at once (AlreadyExists). The vote carries the
 * voter's power recorded with the proposal's snapshot, never its power now.
 */
export const castVote: Handlers["castVote"] = async (ctx, params) => {
  const proposal = ctx.target.row;
  const now = ctx.now();
  await lockProposal(ctx.em, proposal.sid);
  const power = await snapshotPower(ctx.em, proposal.sid, params.voter_id);
  const refusal = voteRefusal({
    status: proposal.status,
    now,
    votingStartsAt: proposal.voting_starts_at,
    votingEndsAt: proposal.voting_ends_at,
    value: params.vote_value,
    allowAbstention: proposal.allow_abstention,
    power,
  });
  if (refusal) throw refused(refusal);
  const row: VoteRow = {
    sid: uuidv7(now),
    proposal_id: proposal.sid,
    company_id: proposal.company_id,
    voter_id: params.voter_id,
    vote_value: params.vote_value,
    voting_power: power ?? 0,
    comment: params.comment ?? null,
    created_at: now,
    updated_at: now,
  };
  try {
    await insertVote(ctx.em, row);
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw governanceError("AlreadyExists", "this voter has already voted on the proposal");
    throw err;
  }
  return toVoteResult(row);
};

/**
 * The resident's voting power now (units on the cap table for standard voting, one per open founding_member or
 * platinum_member role for cooperatives) and its share of the company's total now. A proposal's votes use the
 * power recorded at its creation instead.
 */
export const getVotingPower: Handlers["getVotingPower"] = async (ctx, { company_id, resident_id }) => {
  const power = await currentPower(ctx, company_id, "ordinary");
  if (!power) throw governanceError.notFound("company");
  const mine = power.snapshot.powers.get(resident_id) ?? 0;
  const total = power.snapshot.total;
  return {
    company_id,
    resident_id,
    voting_model: power.model,
    voting_power: mine,
    total_power: total,
    percentage: total > 0 ? (mine / total) * 100 : 0,
  };
};
