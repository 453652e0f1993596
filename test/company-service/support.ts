import type { CreateCompanyData, ShareholderData } from "../../generated/types.ts";
import type { Client, TestApp } from "../support/app.ts";
import { member } from "../support/entities.ts";
import { count, sql } from "../support/helpers.ts";

export const ADDRESS = {
  line1: "1 Shangani St",
  line2: null,
  city: "Stone Town",
  region: null,
  postal_code: null,
  country: "TZ",
};

export function holder(residentId: string, over: Partial<ShareholderData> = {}): ShareholderData {
  return { name: "Ada Lovelace", email: "ada@example.org", resident_id: residentId, units: 100, role: null, ...over };
}

let names = 0;

/** Create params for a single_fzc held by `residentId` on the monthly plan (override anything). */
export function companyData(residentId: string, over: Partial<CreateCompanyData> = {}): CreateCompanyData {
  names += 1;
  return {
    name: `Analytical Engines ${names} FZC`,
    company_type: "single_fzc",
    subscription_plan: "monthly",
    description: "Difference engines",
    address: ADDRESS,
    shareholders: [holder(residentId)],
    ...over,
  };
}

/** Grants a bonus as an administrator (the way tests fund wallets). */
export async function fund(admin: Client, userId: string, amount: number): Promise<void> {
  await admin.callOk("creditservice.add_bonus", { user_id: userId, amount, description: "test funds" });
}

/** A signed-in user with a personal resident and `amount` USD in the wallet. */
export async function founder(t: TestApp, admin: Client, amount = 10_000) {
  const m = await member(t);
  if (amount > 0) await fund(admin, m.client.userId, amount);
  return m;
}

export async function balanceOf(t: TestApp, userId: string): Promise<number> {
  const rows = await sql<{ balance: string }>(t, `select balance::text from credit_balance where user_id = ?`, [
    userId,
  ]);
  return Number(rows[0]?.balance ?? 0);
}

/** What a company registration writes: companies, roles, ledger rows, counters. */
export async function registrationWrites(t: TestApp) {
  return {
    companies: await count(t, "zone_company"),
    roles: await count(t, "company_role"),
    ledger: await count(t, "credit_transaction"),
    balances: await sql(t, `select user_id, balance::text from credit_balance order by user_id`),
    counters: await sql(t, `select name, value from counter order by name`),
  };
}
