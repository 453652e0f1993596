import type { EntityManager } from "@mikro-orm/postgresql";
import { expireEndedContracts } from "../../repos/contracts.ts";
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
  if (everyS <= 0) return { stop: () => undefined };
  const timer = setInterval(() => {
    sweepExpiredContracts(runtime.orm.em, runtime.config.clock())
      .then((moved) => {
        if (moved.length > 0) runtime.log.info({ count: moved.length }, "contracts expired by the sweep");
      })
      .catch((err: unknown) => runtime.log.error({ err }, "contract expiry sweep failed"));
  }, everyS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
