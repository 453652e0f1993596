import { inJobTransaction } from "../../jobs/context.ts";
import { settleDividendVotes } from "../../repos/dividends.ts";
import { expireProposals } from "../../repos/proposals.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The proposal expiry sweep (docs/decisions.md "Proposals, votes and resolutions (issue 17)"): an `active`
 * proposal nobody tallied within `expiryHours` (PROPOSAL_EXPIRY_HOURS) after voting_ends_at becomes `expired`, in
 * one conditional statement (idempotent, safe on several instances; a tally that won keeps its outcome).
 */
export function sweepExpiredProposals(
  runtime: Runtime,
  now: Date,
  expiryHours = runtime.config.proposals.expiryHours,
): Promise<string[]> {
  const endedBefore = new Date(now.getTime() - expiryHours * 3600 * 1000);
  return inJobTransaction(runtime, "proposal-expiry", async (ctx) => {
    const expired = await expireProposals(ctx.em, endedBefore, now);
    // A dividend put to a vote that nobody tallied is cancelled with it.
    await settleDividendVotes(ctx.em, expired, false, now);
    return expired;
  });
}
