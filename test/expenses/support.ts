import { randomBytes } from "node:crypto";
import type { ExpenseResult } from "../../generated/types.ts";
import { limits } from "../identity/support.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

/**
 * Set-up for the expense tests: companies, residents, roles and proxies are inserted straight into the database
 * (their operations belong to the companies issue), as the other test areas do.
 */

const orm = (t: TestApp) => t.app.runtime.orm;
let residents = 0;
let companies = 0;
let users = 0;

export function startExpenseApp(): Promise<TestApp> {
  return startTestApp({ rateLimits: limits({ perAddressPerMinute: 10_000 }) });
}

export async function insertResident(t: TestApp, userId: string, extra: Record<string, unknown> = {}) {
  residents += 1;
  const residentId = `FZ-2026-RA${String(900000 + residents).padStart(6, "0")}`;
  await insertRow(orm(t), "DigitalResident", {
    resident_id: residentId,
    user_id: userId,
    partner_id: null,
    email: `exp-resident${residents}@example.org`,
    first_name: "Ada",
    last_name: "Lovelace",
    status: "active",
    resident_type: "personal",
    source: "direct",
    external_id: `FZX-${randomBytes(6).toString("hex")}`,
    ...extra,
  });
  return residentId;
}

export async function insertCompany(t: TestApp, userId: string): Promise<string> {
  companies += 1;
  const companyId = `FZ-2026-Y${String(900000 + companies).padStart(6, "0")}`;
  await insertRow(orm(t), "ZoneCompany", {
    company_id: companyId,
    user_id: userId,
    partner_id: null,
    name: `Expense Test ${companies} FZC`,
    company_type: "single_fzc",
    registration_number: `REG-E${companies}`,
    status: "active",
    external_id: `FZX-${randomBytes(6).toString("hex")}`,
  });
  return companyId;
}

export async function insertRole(
  t: TestApp,
  companyId: string,
  subjectId: string,
  role: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await insertRow(orm(t), "CompanyRole", {
    company_id: companyId,
    subject_id: subjectId,
    role,
    valid_from: new Date("2026-01-01T00:00:00.000Z"),
    valid_to: null,
    classification_scope: [role],
    created_by: subjectId,
    ...extra,
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

/** A registered user with a resident holding `role` in `companyId` (no role when null). */
export async function person(
  t: TestApp,
  companyId: string | null,
  role: string | null,
  extra: Record<string, unknown> = {},
): Promise<{ client: Client; resident: string }> {
  users += 1;
  const client = await t.register(`exp-user${users}@example.org`);
  const resident = await insertResident(t, client.userId);
  if (companyId && role) await insertRole(t, companyId, resident, role, extra);
  return { client, resident };
}

export const DATA = {
  receipt_number: "R-001",
  vendor_name: "Acme Supplies",
  description: "printer paper",
  amount: 12.5,
  currency: "USD",
  category: "office",
  receipt_url: "https://receipts.example/1.pdf",
  expense_date: "2026-11-01T00:00:00.000Z",
};

export async function draft(client: Client, fzc_id: string, data: Partial<typeof DATA> = {}): Promise<ExpenseResult> {
  return client.callOk("expenseservice.create", { fzc_id, data: { ...DATA, ...data } });
}

/** Everything an expense call may write: compared before and after a refusal. */
export async function writes(t: TestApp) {
  return {
    expenses: await sql(t, `select * from "zone_expense" order by sid`),
    audiences: await count(t, "document_audience"),
    adminActions: await count(t, "admin_action"),
  };
}
