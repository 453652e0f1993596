import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { expect } from "vitest";
import type { CreateInvoiceData, InvoiceResult } from "../../generated/types.ts";
import { limits } from "../identity/support.ts";
import { type CallReply, type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

/**
 * Set-up for the invoice tests: companies, residents and roles are inserted straight into the database (their
 * operations belong to the companies issue), as the expense tests do.
 */

const orm = (t: TestApp) => t.app.runtime.orm;
let residents = 0;
let companies = 0;
let users = 0;

export function startInvoiceApp(): Promise<TestApp> {
  return startTestApp({ rateLimits: limits({ perAddressPerMinute: 100_000 }) });
}

export async function insertResident(t: TestApp, userId: string, extra: Record<string, unknown> = {}) {
  residents += 1;
  const residentId = `FZ-2026-RA${String(800000 + residents).padStart(6, "0")}`;
  await insertRow(orm(t), "DigitalResident", {
    resident_id: residentId,
    user_id: userId,
    partner_id: null,
    email: `inv-resident${residents}@example.org`,
    first_name: "Ada",
    last_name: `Lovelace${residents}`,
    status: "active",
    resident_type: "personal",
    source: "direct",
    external_id: `FZX-${randomBytes(6).toString("hex")}`,
    ...extra,
  });
  return residentId;
}

export async function insertCompany(t: TestApp, userId: string, extra: Record<string, unknown> = {}): Promise<string> {
  companies += 1;
  const coop = typeof extra["company_type"] === "string" && extra["company_type"].startsWith("coop_");
  const companyId = `FZ-2026-${coop ? "P" : "Y"}${String(800000 + companies).padStart(6, "0")}`;
  await insertRow(orm(t), "ZoneCompany", {
    company_id: companyId,
    user_id: userId,
    partner_id: null,
    name: `Invoice Test ${companies} FZC`,
    company_type: "single_fzc",
    registration_number: `REG-I${companies}`,
    status: "active",
    email: `billing${companies}@company.example`,
    logo_url: `https://logos.example/${companies}.png`,
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

/** A registered user with a resident holding `role` in `companyId` (no role when null). */
export async function person(
  t: TestApp,
  companyId: string | null,
  role: string | null,
): Promise<{ client: Client; resident: string }> {
  users += 1;
  const client = await t.register(`inv-user${users}@example.org`);
  const resident = await insertResident(t, client.userId);
  if (companyId && role) await insertRole(t, companyId, resident, role);
  return { client, resident };
}

export const DATA = {
  description: "Consulting, November",
  currency: "USD",
  due_date: "2026-12-23T00:00:00.000Z",
  line_items: [
    { description: "Design", quantity: 3, unit_price: 19.99, amount: 59.97, tax_rate: 0.18 },
    { description: "Hosting", quantity: 1.5, unit_price: 0.05, amount: 0.08, tax_rate: null },
  ],
  recipient_email: "client@customer.example",
} satisfies CreateInvoiceData;

export async function draft(
  client: Client,
  fzc_id: string,
  data: Partial<CreateInvoiceData> = {},
): Promise<InvoiceResult> {
  return client.callOk("invoiceservice.create", { fzc_id, data: { ...DATA, ...data } });
}

/** Everything an invoice call may write: compared before and after a refusal. */
export async function writes(t: TestApp) {
  return {
    invoices: await sql(t, `select * from "zone_invoice" order by sid`),
    defaults: await sql(t, `select * from "invoice_payment_default" order by sid`),
    counters: await sql(t, `select name, value from "counter" order by name`),
    audiences: await count(t, "document_audience"),
    outbox: await count(t, "email_outbox"),
    userMessages: await count(t, "user_message"),
    companyMessages: await count(t, "company_message"),
    adminActions: await count(t, "admin_action"),
  };
}

/** The reply is the error (code, InvoiceError variant when given) and nothing was written. */
export async function refusedNoWrite(
  t: TestApp,
  call: () => Promise<CallReply<unknown>>,
  code: number,
  variant: string | null,
): Promise<void> {
  const before = await writes(t);
  const err = errorOf(await call());
  expect(err.code, JSON.stringify(err)).toBe(code);
  if (variant !== null) expect(err.data, JSON.stringify(err)).toMatchObject({ type: "InvoiceError", variant });
  expect(await writes(t)).toEqual(before);
}

/** pdfjs reads the 14 standard fonts' metrics from its own package (no network). */
const STANDARD_FONTS = `${dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"))}/standard_fonts/`;

/** The text of every page of a PDF, pages joined by newlines. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: STANDARD_FONTS,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await doc.destroy();
  return pages.join("\n");
}

/** The outbox rows to an address, newest first. */
export function outboxTo(t: TestApp, to: string) {
  return sql(t, `select * from "email_outbox" where to_email = ? order by sid desc`, [to]);
}
