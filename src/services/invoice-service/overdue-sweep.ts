import { inJobTransaction } from "../../jobs/context.ts";
import { markOverdue } from "../../repos/invoices.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The overdue sweep (issue 15): sent invoices whose due_date has passed become `overdue`, in one conditional
 * update (`where status = 'sent' and due_date < now`), so concurrent sweeps on several instances and a concurrent
 * mark_paid never both win, and a second run changes nothing. Answers the sids it moved.
 */
export function sweepOverdueInvoices(runtime: Runtime, now: Date): Promise<string[]> {
  return inJobTransaction(runtime, "invoice-overdue", (ctx) => markOverdue(ctx.em, now));
}
