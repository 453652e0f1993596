import { inJobTransaction } from "../../../jobs/context.ts";
import { lapseCompanies } from "../../../repos/companies.ts";
import { postCompanyMessage } from "../../../repos/subscriptions.ts";
import type { Runtime } from "../../../rpc/runtime.ts";

/**
 * The lapse sweep (docs/decisions.md "Company status lifecycle"): `active` companies whose subscription_end_date
 * has passed become `inactive` (one conditional statement, so it is idempotent and safe on several instances at
 * once), and each gets a CompanyMessage saying so, in the same transaction. An inactive company may still be read,
 * edited and renewed (a renewal makes it active again) but no longer operates (src/domain/company-status.ts).
 * The auto-renewal sweep renews only subscriptions that have not ended yet, so the two never compete for a row.
 */
export function sweepLapsedCompanies(runtime: Runtime, now: Date): Promise<string[]> {
  return inJobTransaction(runtime, "company-lapse", async ({ em: tx }) => {
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
