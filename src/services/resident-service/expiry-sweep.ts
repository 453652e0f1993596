import { inJobTransaction } from "../../jobs/context.ts";
import { expireLapsedResidents } from "../../repos/digital-residents.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The expiry sweep (docs/decisions.md "Resident status"): active residents whose subscription_end_date has passed
 * become `expired`. One conditional statement, so it is idempotent and safe on several instances at once; reads
 * show the expiry from the end instant on anyway (effectiveStatus), the sweep makes the stored status agree.
 */
export function sweepExpiredResidents(runtime: Runtime, now: Date): Promise<string[]> {
  return inJobTransaction(runtime, "resident-expiry", (ctx) => expireLapsedResidents(ctx.em, now));
}
