import type { EntityManager } from "@mikro-orm/postgresql";
import { markOverdue } from "../../repos/invoices.ts";
import { startIntervalSweep } from "../../rpc/interval-sweep.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The overdue sweep (issue 15): sent invoices whose due_date has passed become `overdue`, in one conditional
 * update (`where status = 'sent' and due_date < now`), so concurrent sweeps on several instances and a concurrent
 * mark_paid never both win, and a second run changes nothing. Answers the sids it moved.
 */
export function sweepOverdueInvoices(em: EntityManager, now: Date): Promise<string[]> {
  return em.fork().transactional((tx) => markOverdue(tx, now));
}

/** Default seconds between overdue sweeps in each instance (due dates are days; hourly is plenty). */
export const OVERDUE_SWEEP_INTERVAL_S = 3600;

/** Runs the sweep every `everyS` seconds (0: never) on the runtime's clock; `stop()` ends it. */
export function startOverdueInvoiceSweep(runtime: Runtime, everyS = OVERDUE_SWEEP_INTERVAL_S): { stop(): void } {
  return startIntervalSweep(runtime, {
    everyS,
    run: (now) => sweepOverdueInvoices(runtime.orm.em.fork(), now),
    report: (sids) =>
      sids.length > 0 ? { fields: { count: sids.length }, message: "invoices marked overdue by the sweep" } : null,
    failure: "invoice overdue sweep failed",
  });
}
