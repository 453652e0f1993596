import { inJobTransaction } from "../../jobs/context.ts";
import { expireEndedContracts } from "../../repos/contracts.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The contract expiry sweep (docs/decisions.md "Contracts"): pending or active company contracts whose end_date has
 * passed become `expired`. One conditional statement, idempotent and safe on several instances; reads show the
 * expiry from the end instant on anyway (effectiveContractStatus), the sweep makes the stored status agree.
 */
export function sweepExpiredContracts(runtime: Runtime, now: Date): Promise<string[]> {
  return inJobTransaction(runtime, "contract-expiry", (ctx) => expireEndedContracts(ctx.em, now));
}
