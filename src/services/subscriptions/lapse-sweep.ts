import type { EntityManager } from "@mikro-orm/postgresql";
import { lapseCompanies } from "../../repos/companies.ts";
import { startIntervalSweep } from "../../rpc/interval-sweep.ts";
import type { Runtime } from "../../rpc/runtime.ts";
import { postCompanyMessage } from "./store.ts";

/**
 * The lapse sweep (docs/decisions.md "Company status lifecycle"): `active` companies whose subscription_end_date
 * has passed become `inactive` (one conditional statement, so it is idempotent and safe on several instances at
 * once), and each gets a CompanyMessage saying so, in the same transaction. An inactive company may still be read,
 * edited and renewed (a renewal makes it active again) but no longer operates (src/domain/company-status.ts).
 * The auto-renewal sweep renews only subscriptions that have not ended yet, so the two never compete for a row.
 */
export async function sweepLapsedCompanies(em: EntityManager, now: Date): Promise<string[]> {
  return em.fork().transactional(async (tx) => {
    const moved = await lapseCompanies(tx, now);
    for (const companyId of moved) {
      await postCompanyMessage(
        tx,
        companyId,
        {
          title: "Subscription lapsed",
          body:
            "The company's subscription has ended, so the company is inactive: invoices, expenses, treasury, tax " +
            "filings and other business operations are refused until a director renews the subscription.",
          messageType: "alert",
        },
        now,
      );
    }
    return moved;
  });
}

/** Default seconds between sweeps in each instance (as the resident expiry sweep). */
export const COMPANY_LAPSE_SWEEP_INTERVAL_S = 60;

/** Runs the sweep every `everyS` seconds (0: never) on the runtime's clock; `stop()` ends it. */
export function startCompanyLapseSweep(runtime: Runtime, everyS = COMPANY_LAPSE_SWEEP_INTERVAL_S): { stop(): void } {
  return startIntervalSweep(runtime, {
    everyS,
    run: (now) => sweepLapsedCompanies(runtime.orm.em.fork(), now),
    report: (moved) =>
      moved.length > 0
        ? { fields: { count: moved.length }, message: "companies lapsed to inactive by the sweep" }
        : null,
    failure: "company lapse sweep failed",
  });
}
