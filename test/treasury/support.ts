import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { TreasuryAccountResult } from "../../generated/types.ts";
import type { Config } from "../../src/config.ts";
import { limits } from "../identity/support.ts";
import { type CallReply, type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

/**
 * Set-up for the treasury tests: companies, residents, roles and proxies are inserted straight into the database
 * (their operations belong to other issues), as the expense tests do. Money enters through fund_account.
 */

const orm = (t: TestApp) => t.app.runtime.orm;
let residents = 0;
let companies = 0;
let users = 0;

export function startTreasuryApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  return startTestApp({ rateLimits: limits({ perAddressPerMinute: 100_000 }), ...overrides });
}

export async function insertResident(t: TestApp, userId: string, extra: Record<string, unknown> = {}) {
  residents += 1;
  const residentId = `FZ-2026-RA${String(800000 + residents).padStart(6, "0")}`;
  await insertRow(orm(t), "DigitalResident", {
    resident_id: residentId,
    user_id: userId,
    partner_id: null,
    email: `trs-resident${residents}@example.org`,
    first_name: "Grace",
    last_name: "Hopper",
    status: "active",
    resident_type: "personal",
    source: "direct",
    external_id: `FZX-${randomBytes(6).toString("hex")}`,
    ...extra,
  });
  return residentId;
}

export async function insertCompany(t: TestApp, userId: string, extra: Record<string, unknown> = {}) {
  companies += 1;
  const companyId = `FZ-2026-Y${String(800000 + companies).padStart(6, "0")}`;
  await insertRow(orm(t), "ZoneCompany", {
    company_id: companyId,
    user_id: userId,
    partner_id: null,
    name: `Treasury Test ${companies} FZC`,
    company_type: "single_fzc",
    registration_number: `REG-T${companies}`,
    status: "active",
    external_id: `FZX-${randomBytes(6).toString("hex")}`,
    ...extra,
  });
  return companyId;
}

export async function insertRole(t: TestApp, companyId: string, subjectId: string, role: string): Promise<void> {
  await insertRow(orm(t), "CompanyRole", {
    company_id: companyId,
    subject_id: subjectId,
    role,
    valid_from: new Date("2026-01-01T00:00:00.000Z"),
    valid_to: null,
    classification_scope: [role],
    created_by: subjectId,
  });
}

export async function insertProxy(t: TestApp, principal: string, target: string): Promise<void> {
  await insertRow(orm(t), "Proxy", {
    principal_dr_id: principal,
    target_dr_id: target,
    role: "proxy",
    status: "active",
    valid_from: new Date("2026-01-01T00:00:00.000Z"),
    valid_to: null,
    created_by: "admin",
  });
}

export interface Person {
  client: Client;
  resident: string;
}

/** A registered user with a resident holding `role` in `companyId` (no role when null). */
export async function person(t: TestApp, companyId: string | null, role: string | null): Promise<Person> {
  users += 1;
  const client = await t.register(`trs-user${users}@example.org`);
  const resident = await insertResident(t, client.userId);
  if (companyId && role) await insertRole(t, companyId, resident, role);
  return { client, resident };
}

export const BANK = {
  kind: "bank_account" as const,
  name: "Operating EUR",
  currency: "EUR",
  bank_name: "Zanzibar Bank",
  iban: "DE89370400440532013000",
  swift: "DEUTDEFF",
};

export const WALLET = {
  kind: "crypto_wallet" as const,
  name: "USDC wallet",
  currency: "USDC",
  network: "ethereum",
  address: "0x52908400098527886E0F7030069857D2E4169EE7",
};

/** The kind's complete example (a crypto wallet's fields are not a bank account's). */
const baseOf = (data: Record<string, unknown>) => (data["kind"] === "crypto_wallet" ? WALLET : BANK);

export async function companyAccount(
  director: Client,
  companyId: string,
  data: Record<string, unknown> = {},
): Promise<TreasuryAccountResult> {
  return director.callOk("treasuryservice.create_company_account", {
    company_id: companyId,
    data: { ...baseOf(data), name: `acct-${randomBytes(4).toString("hex")}`, ...data },
  });
}

export async function residentAccount(
  owner: Person,
  data: Record<string, unknown> = {},
): Promise<TreasuryAccountResult> {
  return owner.client.callOk("treasuryservice.create_resident_account", {
    resident_id: owner.resident,
    data: { ...baseOf(data), name: `acct-${randomBytes(4).toString("hex")}`, ...data },
  });
}

export async function fund(admin: Client, account: { sid: string; currency: string }, amount: number) {
  return admin.callOk("treasuryservice.fund_account", { account_id: account.sid, amount, currency: account.currency });
}

export async function balanceOf(t: TestApp, accountId: string): Promise<{ balance: number; pending_out: number }> {
  const [row] = await sql<{ balance: string; pending_out: string }>(
    t,
    `select balance::text as balance, pending_out::text as pending_out from treasury_account where sid = ?`,
    [accountId],
  );
  return { balance: Number(row?.balance), pending_out: Number(row?.pending_out) };
}

/** Everything a treasury call may write: compared before and after a refusal. */
export async function writes(t: TestApp) {
  return {
    accounts: await sql(t, `select * from "treasury_account" order by sid`),
    transactions: await count(t, "treasury_transaction"),
    transfers: await sql(t, `select sid, status from "fund_transfer" order by sid`),
    exchanges: await count(t, "exchange_transaction"),
    quotes: await sql(t, `select sid, exchange_id from "exchange_quote" order by sid`),
    adminActions: await count(t, "admin_action"),
  };
}

/** The reply is the error (code, type, variant) and nothing was written. */
export async function refusedNoWrite(
  t: TestApp,
  call: () => Promise<CallReply<unknown>>,
  code: number,
  type: "TreasuryError" | "TreasuryOperationsError",
  variant: string | null,
): Promise<void> {
  const before = await writes(t);
  const err = errorOf(await call());
  expect(err.code, JSON.stringify(err)).toBe(code);
  if (variant !== null) expect(err.data, JSON.stringify(err)).toMatchObject({ type, variant });
  expect(await writes(t)).toEqual(before);
}
