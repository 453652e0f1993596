import type { EntityManager } from "@mikro-orm/postgresql";
import { expireLapsedResidents } from "../../repos/digital-residents.ts";
import { startIntervalSweep } from "../../rpc/interval-sweep.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The expiry sweep (docs/decisions.md "Resident status"): active residents whose subscription_end_date has passed
 * become `expired`. One conditional statement, so it is idempotent and safe on several instances at once; reads
 * show the expiry from the end instant on anyway (effectiveStatus), the sweep makes the stored status agree.
 */
export async function sweepExpiredResidents(em: EntityManager, now: Date): Promise<string[]> {
  return expireLapsedResidents(em, now);
}

/** Default seconds between sweeps in each instance. */
export const RESIDENT_SWEEP_INTERVAL_S = 60;

/** Runs the sweep every `everyS` seconds (0: never) on the runtime's clock; `stop()` ends it. */
export function startResidentExpirySweep(runtime: Runtime, everyS = RESIDENT_SWEEP_INTERVAL_S): { stop(): void } {
  return startIntervalSweep(runtime, {
    everyS,
    run: (now) => sweepExpiredResidents(runtime.orm.em.fork(), now),
    report: (moved) =>
      moved.length > 0 ? { fields: { count: moved.length }, message: "residents expired by the sweep" } : null,
    failure: "resident expiry sweep failed",
  });
}
