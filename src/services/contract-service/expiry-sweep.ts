import type { EntityManager } from "@mikro-orm/postgresql";
import { expireEndedContracts } from "../../repos/contracts.ts";
import { startIntervalSweep } from "../../rpc/interval-sweep.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The contract expiry sweep (docs/decisions.md "Contracts"): pending or active company contracts whose end_date has
 * passed become `expired`. One conditional statement, idempotent and safe on several instances; reads show the
 * expiry from the end instant on anyway (effectiveContractStatus), the sweep makes the stored status agree.
 */
export function sweepExpiredContracts(em: EntityManager, now: Date): Promise<string[]> {
  return em.fork().transactional((tx) => expireEndedContracts(tx, now));
}

/** Default seconds between sweeps in each instance. */
export const CONTRACT_SWEEP_INTERVAL_S = 60;

/** Runs the sweep every `everyS` seconds (0: never) on the runtime's clock; `stop()` ends it. */
export function startContractExpirySweep(runtime: Runtime, everyS = CONTRACT_SWEEP_INTERVAL_S): { stop(): void } {
  return startIntervalSweep(runtime, {
    everyS,
    run: (now) => sweepExpiredContracts(runtime.orm.em, now),
    report: (moved) =>
      moved.length > 0 ? { fields: { count: moved.length }, message: "contracts expired by the sweep" } : null,
    failure: "contract expiry sweep failed",
  });
}
