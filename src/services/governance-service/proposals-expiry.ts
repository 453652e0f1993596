import type { EntityManager } from "@mikro-orm/postgresql";
import { expireProposals } from "../../repos/proposals.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The proposal expiry sweep (docs/decisions.md "Proposals, votes and resolutions (issue 17)"): an `active`
 * proposal nobody tallied within `expiryHours` (PROPOSAL_EXPIRY_HOURS) after voting_ends_at becomes `expired`, in
 * one conditional statement (idempotent, safe on several instances; a tally that won keeps its outcome).
 */
export function sweepExpiredProposals(em: EntityManager, now: Date, expiryHours: number): Promise<string[]> {
  const endedBefore = new Date(now.getTime() - expiryHours * 3600 * 1000);
  return em.fork().transactional((tx) => expireProposals(tx, endedBefore, now));
}

/** Runs the sweep every PROPOSAL_SWEEP_INTERVAL_S seconds (0: never) on the runtime's clock; `stop()` ends it. */
export function startProposalExpirySweep(runtime: Runtime): { stop(): void } {
  const { sweepIntervalS, expiryHours } = runtime.config.proposals;
  if (sweepIntervalS <= 0) return { stop: () => undefined };
  const timer = setInterval(() => {
    sweepExpiredProposals(runtime.orm.em.fork(), runtime.config.clock(), expiryHours)
      .then((moved) => {
        if (moved.length > 0) runtime.log.info({ count: moved.length }, "proposals expired by the sweep");
      })
      .catch((err: unknown) => runtime.log.error({ err }, "proposal expiry sweep failed"));
  }, sweepIntervalS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
