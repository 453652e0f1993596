import { expect, test } from "vitest";
import { usingPostgres } from "../../support/database.ts";
import { startFinanceApp } from "../../support/entities.ts";
import { sql } from "../../support/helpers.ts";
import { balanceOf, companyAccount, fund, residentAccount } from "../../treasury/support.ts";
import { capTableCompany } from "../transfers/support.ts";

test(`concurrent executions of one dividend debit the source once and pay each holder once (${usingPostgres ? "PostgreSQL" : "PGlite"})`, async () => {
  const t = await startFinanceApp();
  const cap = await capTableCompany(t);
  const admin = await t.admin();
  const source = await companyAccount(cap.director.client, cap.company, { currency: "EUR" });
  await fund(admin, source, 500);
  const alice = await residentAccount(cap.alice, { currency: "EUR" });
  const bob = await residentAccount(cap.bob, { currency: "EUR" });
  const d = await cap.director.client.callOk("shareholderservice.initiate_dividend", {
    company_id: cap.company,
    total_amount: 300,
    currency: "EUR",
    source_account_id: source.sid,
    distribution_date: t.clock.now().toISOString(),
    initiated_by: cap.director.resident,
  });
  const replies = await Promise.all(
    Array.from({ length: 5 }, () =>
      cap.director.client.call("shareholderservice.execute_dividend", { dividend_id: d.sid }),
    ),
  );
  for (const r of replies) expect("result" in r && r.result.status).toBe("completed");
  expect((await balanceOf(t, source.sid)).balance).toBe(200);
  expect((await balanceOf(t, alice.sid)).balance).toBe(200);
  expect((await balanceOf(t, bob.sid)).balance).toBe(100);
  const rows = await sql(
    t,
    `select tx_type, count(*)::int as n from treasury_transaction where reference = ? group by tx_type order by tx_type`,
    [`dividend:${d.sid}`],
  );
  expect(rows).toEqual([
    { tx_type: "credit", n: 2 },
    { tx_type: "debit", n: 1 },
  ]);
});
