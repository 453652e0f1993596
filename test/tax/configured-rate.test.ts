import { beforeAll, expect, test } from "vitest";
import { loadConfig } from "../../src/config.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, person, startFinanceApp } from "../support/entities.ts";
import { sql } from "../support/helpers.ts";

/** A deployment with its own tax configuration: the rate, currency and deadlines come from it. */

let t: TestApp;
let company: string;
let director: { client: Client; resident: string };

beforeAll(async () => {
  const tax = loadConfig({ TAX_RATE: "0.2", TAX_CURRENCY: "EUR", TAX_DUE_DAYS_QUARTERLY: "45" }).tax;
  t = await startFinanceApp({ tax });
  const owner = await t.register("taxc-owner@example.org");
  company = await insertCompany(t, owner.userId);
  director = await person(t, company, "director");
});

test("create and update use the configured rate, currency and due days; an update snapshots the rate in force", async () => {
  const f = await director.client.callOk("taxservice.create_filing", {
    company_id: company,
    filing_type: "quarterly",
    period_start: "2026-07-01T00:00:00.000Z",
    period_end: "2026-10-01T00:00:00.000Z",
  });
  expect(f).toMatchObject({ tax_rate: 0.2, currency: "EUR", due_date: "2026-11-15T00:00:00.000Z" });
  // 333.33 x 0.2 = 66.666 -> 66.67
  const figures = { filing_id: f.sid, gross_revenue: 333.33, cost_of_goods_sold: 0, operating_expenses: 0 };
  expect(await director.client.callOk("taxservice.update_filing", figures)).toMatchObject({ tax_due: 66.67 });
  t.config.tax = { ...t.config.tax, rate: 0.1 };
  expect(await director.client.callOk("taxservice.update_filing", figures)).toMatchObject({
    tax_rate: 0.1,
    tax_due: 33.33,
  });
  const [row] = await sql(t, `select tax_rate::text as rate, tax_due::text as due from "tax_filing" where sid = ?`, [
    f.sid,
  ]);
  expect(row).toEqual({ rate: "0.100000", due: "33.33" });
});
