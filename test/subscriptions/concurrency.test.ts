import { expect, test } from "vitest";
import { sweepRenewals } from "../../src/services/shared/subscriptions/auto-renewal-sweep.ts";
import type { Client } from "../support/app.ts";
import { usingPostgres } from "../support/database.ts";
import { sql } from "../support/helpers.ts";
import { balanceOf, datesOf, fund, insertCompany, insertResident, startRenewalApp } from "./support.ts";

// PostgreSQL only (PGlite has one connection, so nothing runs concurrently there): concurrent sweeps renew each
// due subscription once, and concurrent renewals of one resident extend it one after the other (no lost update).

test.runIf(usingPostgres)("three concurrent auto-renewal sweeps renew each due subscription exactly once", async () => {
  const t = await startRenewalApp();
  const admin = await t.admin();
  const users: Client[] = [];
  for (let i = 0; i < 8; i++) users.push(await t.register(`owner${i}@example.org`));
  const residents: string[] = [];
  const companies: string[] = [];
  const end = new Date("2026-11-25T10:00:00.000Z");
  for (const u of users) {
    await fund(admin, u.userId, 1000);
    residents.push(await insertResident(t, u.userId, { auto_renewal: true, subscription_end_date: end }));
    companies.push(
      await insertCompany(t, u.userId, {
        auto_renewal: true,
        subscription_plan: "monthly",
        subscription_end_date: end,
      }),
    );
  }
  const now = t.clock.now();
  const outcomes = await Promise.all([0, 1, 2].map(() => sweepRenewals(t.app.runtime, now)));
  const renewed = outcomes.flatMap((o) => o.renewed).sort();
  expect(renewed).toEqual([...residents, ...companies].sort());
  expect(outcomes.flatMap((o) => o.failed)).toEqual([]);
  for (const u of users) expect(await balanceOf(t, u.userId)).toBe(1000 - 102 - 90);
  for (const r of residents) {
    expect(await datesOf(t, "digital_resident", r)).toMatchObject({ end: "2027-11-25T10:00:00.000Z" });
  }
  for (const c of companies)
    expect(await datesOf(t, "zone_company", c)).toMatchObject({ end: "2026-12-25T10:00:00.000Z" });
  const debits = await sql<{ n: string }>(
    t,
    `select count(*) as n from credit_transaction where tx_type = 'deduction'`,
  );
  expect(Number(debits[0]?.n)).toBe(16);
});

test.runIf(usingPostgres)(
  "concurrent renewals of one resident all extend it: 5 asked, 3 paid, 3 months added",
  async () => {
    const t = await startRenewalApp();
    const admin = await t.admin();
    const ada = await t.register("ada@example.org");
    const residentId = await insertResident(t, ada.userId);
    await fund(admin, ada.userId, 30);
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => ada.call("paymentservice.initiate_renewal", { plan: "1_month" })),
    );
    const ok = replies.filter((r) => "result" in r);
    const refused = replies.flatMap((r) => ("error" in r ? [r.error.data?.variant] : []));
    expect(ok).toHaveLength(3);
    expect(refused).toEqual(["InsufficientFunds", "InsufficientFunds"]);
    expect(await balanceOf(t, ada.userId)).toBe(0);
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({ end: "2027-03-10T00:00:00.000Z" });
    const ends = ok.map((r) => ("result" in r ? r.result.subscription_end_date : null)).sort();
    expect(ends).toEqual(["2027-01-10T00:00:00.000Z", "2027-02-10T00:00:00.000Z", "2027-03-10T00:00:00.000Z"]);
  },
);
