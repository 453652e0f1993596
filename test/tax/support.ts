import type { TaxFilingResult } from "../../generated/types.ts";
import { type Client, PASSWORD, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";

/** Set-up shared by the tax tests (people and companies come from test/support/entities.ts). */

export const Q3 = {
  filing_type: "quarterly",
  period_start: "2026-07-01T00:00:00.000Z",
  period_end: "2026-10-01T00:00:00.000Z",
} as const;

export const Q2 = {
  filing_type: "quarterly",
  period_start: "2026-04-01T00:00:00.000Z",
  period_end: "2026-07-01T00:00:00.000Z",
} as const;

/** Submits a filing as `by` (its own resident, the account password); the submitted filing. */
export function submitFiling(by: { client: Client; resident: string }, filingId: string): Promise<TaxFilingResult> {
  return by.client.callOk("taxservice.submit_filing", {
    filing_id: filingId,
    submitted_by: by.resident,
    password: PASSWORD,
  });
}

let year = 2000;

/** A fresh annual period per call, so tests do not collide on the one-live-filing-per-period rule. */
export function freshYear() {
  year += 1;
  return {
    filing_type: "annual" as const,
    period_start: `${year}-01-01T00:00:00.000Z`,
    period_end: `${year + 1}-01-01T00:00:00.000Z`,
  };
}

export async function draftFiling(
  client: Client,
  company_id: string,
  period: { filing_type: "monthly" | "quarterly" | "annual"; period_start: string; period_end: string } = freshYear(),
): Promise<TaxFilingResult> {
  return client.callOk("taxservice.create_filing", { company_id, ...period });
}

/** Everything a tax call may write: compared before and after a refusal. */
export async function taxWrites(t: TestApp) {
  return {
    filings: await sql(t, `select * from "tax_filing" order by sid`),
    documents: await count(t, "tax_document"),
    audiences: await count(t, "document_audience"),
    adminActions: await count(t, "admin_action"),
    counters: await sql(t, `select name, value from "counter" order by name`),
  };
}
