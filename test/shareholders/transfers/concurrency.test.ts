import { expect, test } from "vitest";
import { usingPostgres } from "../../support/database.ts";
import { startFinanceApp } from "../../support/entities.ts";
import { sql } from "../../support/helpers.ts";
import { insertRow } from "../../support/rows.ts";
import { capTable, capTableCompany, initiate, openRoles, totalUnits, unitsOf } from "./support.ts";

const variantOf = (r: { result: unknown } | { error: { data?: { variant?: string } } }) =>
  "result" in r ? "ok" : (r.error.data?.variant ?? "?");

test("concurrent initiations from one holder that together exceed the holding: only those that fit are accepted", async () => {
  const t = await startFinanceApp();
  const cap = await capTableCompany(t);
  const replies = await Promise.all(Array.from({ length: 8 }, () => initiate(cap, cap.alice, cap.carol.resident, 30)));
  const outcomes = replies.map(variantOf).sort();
  expect(outcomes).toEqual([
    "InsufficientShares",
    "InsufficientShares",
    "InsufficientShares",
    "InsufficientShares",
    "InsufficientShares",
    "ok",
    "ok",
    "ok",
  ]);
  const [row] = await sql<{ n: number }>(
    t,
    `select sum(units)::float8 as n from share_transfer where from_resident_id = ? and status = 'pending'`,
    [cap.alice.resident],
  );
  expect(row?.n).toBe(90);
});

test(`concurrent completions from one holder that together exceed the holding: only those that fit complete, the total is conserved (${usingPostgres ? "PostgreSQL" : "PGlite"})`, async () => {
  const t = await startFinanceApp();
  const cap = await capTableCompany(t);
  const orm = t.app.runtime.orm;
  // Approved transfers committing 180 of alice's 100 units (written directly: initiate would refuse the excess).
  const recipients = [cap.carol.resident, cap.stranger.resident];
  const sids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const row = await insertRow(orm, "ShareTransfer", {
      company_id: cap.company,
      from_resident_id: cap.alice.resident,
      to_resident_id: recipients[i % 2],
      units: 30,
      reason: null,
      status: "approved",
      transfer_hash: "0".repeat(64),
      to_signature: "0".repeat(128),
      approved_at: t.clock.now(),
    });
    sids.push(String(row["sid"]));
  }
  const replies = await Promise.all(
    sids.map((sid) => cap.director.client.call("shareholderservice.complete_transfer", { transfer_id: sid })),
  );
  const outcomes = replies.map(variantOf).sort();
  expect(outcomes).toEqual(["InsufficientShares", "InsufficientShares", "InsufficientShares", "ok", "ok", "ok"]);
  const table = await capTable(t, cap.company);
  expect(totalUnits(table)).toBe(150);
  expect(unitsOf(table, cap.alice.resident)).toBe(10);
  expect(unitsOf(table, cap.bob.resident)).toBe(50);
  expect(unitsOf(table, cap.carol.resident) + unitsOf(table, cap.stranger.resident)).toBe(90);
  const completed = await sql<{ n: string }>(
    t,
    `select count(*) as n from share_transfer where company_id = ? and status = 'completed'`,
    [cap.company],
  );
  expect(Number(completed[0]?.n)).toBe(3);
  // every recipient with units holds exactly one open shareholder role
  for (const r of recipients) {
    expect(await openRoles(t, cap.company, r)).toEqual(unitsOf(table, r) > 0 ? ["shareholder"] : []);
  }
});
