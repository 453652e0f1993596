import type { EntityManager } from "@mikro-orm/postgresql";
import { expireLapsedResidents } from "../../repos/digital-residents.ts";
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
  if (everyS <= 0) return { stop: () => undefined };
  const timer = setInterval(() => {
    const now = runtime.config.clock();
    sweepExpiredResidents(runtime.orm.em.fork(), now)
      .then((moved) => {
        if (moved.length > 0) runtime.log.info({ count: moved.length }, "residents expired by the sweep");
      })
      .catch((err: unknown) => runtime.log.error({ err }, "resident expiry sweep failed"));
  }, everyS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
