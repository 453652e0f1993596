import type { Client, TestApp } from "../support/app.ts";
import * as entities from "../support/entities.ts";
import { sql } from "../support/helpers.ts";

/**
 * Renewal tests: residents, companies and roles are inserted straight into the database (their operations belong
 * to other issues), wallets are funded by an administrator's bonus. The test clock starts 2026-11-23T10:00Z.
 */

export { insertRole, startFinanceApp as startRenewalApp } from "../support/entities.ts";

/** Each test's start: a fresh app (its clock at NOW), an administrator and Ada. */
export async function renewalStart(): Promise<{ t: TestApp; admin: Client; ada: Client }> {
  const t = await entities.startFinanceApp();
  return { t, admin: await t.admin(), ada: await t.register("ada@example.org") };
}

export const NOW = "2026-11-23T10:00:00.000Z";

/** A subscribed resident of `userId` (active, 1_year plan, ends 2026-12-10) unless `extra` says otherwise. */
export function insertResident(
  t: TestApp,
  userId: string | null,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return entities.insertResident(t, userId, {
    phone: "+255700000001",
    subscription_plan: "1_year",
    auto_renewal: false,
    subscription_start_date: new Date("2025-12-10T00:00:00.000Z"),
    subscription_end_date: new Date("2026-12-10T00:00:00.000Z"),
    ...extra,
  });
}

/** An active startup_fzc of `userId` (fee snapshot 90/month, 10 per extra shareholder), ends 2026-12-01. */
export function insertCompany(t: TestApp, userId: string, extra: Record<string, unknown> = {}): Promise<string> {
  return entities.insertCompany(t, userId, {
    company_type: "startup_fzc",
    monthly_fee_rate: 90,
    shareholder_fee_rate: 10,
    shareholders: [],
    subscription_plan: "one_year",
    auto_renewal: false,
    subscription_start_date: new Date("2025-12-01T00:00:00.000Z"),
    subscription_end_date: new Date("2026-12-01T00:00:00.000Z"),
    ...extra,
  });
}

export async function fund(admin: Client, userId: string, amount: number) {
  await admin.callOk("creditservice.add_bonus", { user_id: userId, amount, description: "test funds" });
}

export async function balanceOf(t: TestApp, userId: string): Promise<number | null> {
  const rows = await sql<{ b: string }>(t, `select balance::text as b from credit_balance where user_id = ?`, [userId]);
  return rows[0] ? Number(rows[0].b) : null;
}

/** The subscription columns of a resident or company, dates as ISO strings. */
export async function datesOf(t: TestApp, table: "digital_resident" | "zone_company", key: string) {
  const column = table === "digital_resident" ? "resident_id" : "company_id";
  const rows = await sql<Record<string, unknown>>(
    t,
    `select status, subscription_plan, subscription_start_date, subscription_end_date from "${table}" where ${column} = ?`,
    [key],
  );
  const r = rows[0];
  if (!r) return null;
  const iso = (v: unknown) => (v === null ? null : new Date(v as string).toISOString());
  return {
    status: r["status"],
    plan: r["subscription_plan"],
    start: iso(r["subscription_start_date"]),
    end: iso(r["subscription_end_date"]),
  };
}

/** Deduction rows of a user's wallet. */
export async function deductions(t: TestApp, userId: string) {
  return sql<{ amount: string; reference_type: string; reference_id: string }>(
    t,
    `select amount::text as amount, reference_type, reference_id from credit_transaction
     where user_id = ? and tx_type = 'deduction' order by created_at, sid`,
    [userId],
  );
}
