import { createRequire } from "node:module";
import { dirname } from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { CreateInvoiceData, InvoiceResult } from "../../generated/types.ts";
import type { CallReply, Client, TestApp } from "../support/app.ts";
import * as entities from "../support/entities.ts";
import { count, refusedNoWrite as refused, sql } from "../support/helpers.ts";

/**
 * Set-up for the invoice tests: companies, residents and roles come from test/support/entities.ts; invoice
 * companies carry a billing email and a logo, and residents numbered last names (recipient names tell them apart).
 */

export { insertRole, startFinanceApp as startInvoiceApp } from "../support/entities.ts";

export function insertResident(t: TestApp, userId: string, extra: Record<string, unknown> = {}): Promise<string> {
  return entities.insertResident(t, userId, (n) => ({ last_name: `Lovelace${n}`, ...extra }));
}

export function insertCompany(t: TestApp, userId: string, extra: Record<string, unknown> = {}): Promise<string> {
  return entities.insertCompany(t, userId, (n) => ({
    name: `Invoice Test ${n} FZC`,
    registration_number: `REG-I${n}`,
    email: `billing${n}@company.example`,
    logo_url: `https://logos.example/${n}.png`,
    ...extra,
  }));
}

/** A registered user with a resident holding `role` in `companyId` (no role when null). */
export async function person(
  t: TestApp,
  companyId: string | null,
  role: string | null,
): Promise<{ client: Client; resident: string }> {
  const m = await entities.member(t, (n) => ({ last_name: `Lovelace${n}` }));
  if (companyId && role) await entities.insertRole(t, companyId, m.resident, role);
  return m;
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
export function refusedNoWrite(
  t: TestApp,
  call: () => Promise<CallReply<unknown>>,
  code: number,
  variant: string | null,
): Promise<void> {
  return refused(() => writes(t), call, code, variant === null ? null : { type: "InvoiceError", variant });
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
