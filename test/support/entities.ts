import { randomBytes } from "node:crypto";
import { type Config, loadConfig } from "../../src/config.ts";
import { type Client, startTestApp, type TestApp } from "./app.ts";
import { insertRow } from "./rows.ts";

/**
 * Residents, companies, roles and proxies inserted straight into the database (their own operations belong to other
 * issues), shared by the test folders. One serial per worker numbers every row made here: the files of a worker share
 * this module (vitest `isolate: false`), so ids, emails and registration numbers never collide between them, and the
 * range (from 100001) stays clear of the ids residentservice.create numbers from 000001 and of the 999999/777777
 * "unknown id" sentinels the tests use.
 */

/** Field values; a function gets the row's serial number (for names that must differ between rows). */
export type Extra = Record<string, unknown> | ((n: number) => Record<string, unknown>);

let serial = 100_000;

function next(): number {
  serial += 1;
  return serial;
}

const fields = (extra: Extra, n: number) => (typeof extra === "function" ? extra(n) : extra);
const externalId = () => `FZX-${randomBytes(6).toString("hex")}`;
const orm = (t: TestApp) => t.app.runtime.orm;

/** A test app whose per-address limit does not stop the many registrations of a file. */
export function startFinanceApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const rateLimits = { ...loadConfig({}).rateLimits, perAddressPerMinute: 100_000 };
  return startTestApp({ rateLimits, ...overrides });
}

/** A DigitalResident row (active personal resident of `userId` unless `extra` says otherwise); its formatted id. */
export async function insertResident(t: TestApp, userId: string | null, extra: Extra = {}): Promise<string> {
  const n = next();
  const residentId = `FZ-2026-RA${n}`;
  await insertRow(orm(t), "DigitalResident", {
    resident_id: residentId,
    user_id: userId,
    partner_id: null,
    email: `fz-resident${n}@example.org`,
    first_name: "Ada",
    last_name: "Lovelace",
    status: "active",
    resident_type: "personal",
    source: "direct",
    external_id: externalId(),
    ...fields(extra, n),
  });
  return residentId;
}

/** A ZoneCompany row owned by `userId` (active single_fzc unless `extra` says otherwise); its formatted id. */
export async function insertCompany(t: TestApp, userId: string, extra: Extra = {}): Promise<string> {
  const n = next();
  const values = fields(extra, n);
  const type = values["company_type"];
  const coop = typeof type === "string" && type.startsWith("coop_");
  const companyId = `FZ-2026-${coop ? "P" : "Y"}${n}`;
  await insertRow(orm(t), "ZoneCompany", {
    company_id: companyId,
    user_id: userId,
    partner_id: null,
    name: `Test Company ${n} FZC`,
    company_type: "single_fzc",
    registration_number: `REG-T${n}`,
    status: "active",
    external_id: externalId(),
    ...values,
  });
  return companyId;
}

/** A current CompanyRole of `subjectId` (classification scope [role] unless `extra` says otherwise). */
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

/** An active Proxy: `principal` may act for `target`. */
export async function insertProxy(
  t: TestApp,
  principal: string,
  target: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await insertRow(orm(t), "Proxy", {
    principal_dr_id: principal,
    target_dr_id: target,
    role: "proxy",
    status: "active",
    valid_from: new Date("2026-01-01T00:00:00.000Z"),
    valid_to: null,
    created_by: "admin",
    ...extra,
  });
}

/**
 * A signed-in user with its personal resident (`residentExtra` sets its fields): a user has at most one (the
 * database's partial unique index), so each test that needs one makes one.
 */
export async function member(t: TestApp, residentExtra: Extra = {}): Promise<{ client: Client; resident: string }> {
  const client = await t.register(`fz-user${next()}@example.org`);
  return { client, resident: await insertResident(t, client.userId, residentExtra) };
}

/** A signed-in user with a resident holding `role` in `companyId` (no role when either is null). */
export async function person(
  t: TestApp,
  companyId: string | null,
  role: string | null,
  roleExtra: Record<string, unknown> = {},
): Promise<{ client: Client; resident: string }> {
  const m = await member(t);
  if (companyId && role) await insertRole(t, companyId, m.resident, role, roleExtra);
  return m;
}

export interface Staffed {
  company: string;
  /** A second company of the same owner. */
  other: string;
  director: { client: Client; resident: string };
  shareholder: { client: Client; resident: string };
  /** A director of `other` only. */
  outsider: { client: Client; resident: string };
}

/** Two companies of one owner (registered as `ownerEmail`), a director and a shareholder of the first, a director of the second. */
export async function staffedCompanies(t: TestApp, ownerEmail: string): Promise<Staffed> {
  const owner = await t.register(ownerEmail);
  const company = await insertCompany(t, owner.userId);
  const other = await insertCompany(t, owner.userId);
  return {
    company,
    other,
    director: await person(t, company, "director"),
    shareholder: await person(t, company, "shareholder"),
    outsider: await person(t, other, "director"),
  };
}
