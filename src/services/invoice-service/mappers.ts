import type { EntityManager } from "@mikro-orm/postgresql";
import type { InvoicePaymentDefaultRow, ZoneInvoiceRow } from "../../../generated/entities.ts";
import type { InvoicePaymentDefaultResult, InvoiceResult } from "../../../generated/types.ts";
import { personName, recipientName, totalAmount } from "../../domain/invoices.ts";
import * as invoices from "../../repos/invoices.ts";

/**
 * Rows to results. The derived names are resolved at read time (never stored), for a whole list in three reads:
 * issuer_name / issuer_registration_number from the issuing company, recipient_name in the seed's order.
 */

export interface Parties {
  companies: Map<string, invoices.CompanyFacts>;
  residents: Map<string, invoices.ResidentFacts>;
  users: Map<string, invoices.UserFacts>;
}

/** The companies, residents and users the rows name (issuers and recipients, the issuing residents too). */
export async function loadParties(em: EntityManager, rows: readonly ZoneInvoiceRow[]): Promise<Parties> {
  const companyIds: string[] = [];
  const residentIds: string[] = [];
  const userIds: string[] = [];
  for (const r of rows) {
    if (r.sender_entity_id !== null)
      (r.sender_entity_type === null ? residentIds : companyIds).push(r.sender_entity_id);
    if (r.recipient_entity_id !== null) {
      (r.recipient_entity_type === "resident" ? residentIds : companyIds).push(r.recipient_entity_id);
    }
    if (r.recipient_user_id !== null) userIds.push(r.recipient_user_id);
    if (r.sender_user_id !== null) userIds.push(r.sender_user_id);
  }
  // One after the other: inside a call's transaction the three reads share one connection, and pg deprecates
  // queueing a query on a client that is still executing one.
  const companies = await invoices.companiesById(em, companyIds);
  const residents = await invoices.residentsById(em, residentIds);
  const users = await invoices.usersById(em, userIds);
  return {
    companies: new Map(companies.map((c) => [c.company_id, c])),
    residents: new Map(residents.map((r) => [r.resident_id, r])),
    users: new Map(users.map((u) => [u.sid, u])),
  };
}

/** The issuing company, when the issuer is one. */
export function issuerCompany(row: ZoneInvoiceRow, p: Parties): invoices.CompanyFacts | null {
  if (row.sender_entity_type === null || row.sender_entity_id === null) return null;
  return p.companies.get(row.sender_entity_id) ?? null;
}

/** The name the issuer goes by on the PDF and in the email: the company, else the issuing resident, else the user. */
export function issuerDisplayName(row: ZoneInvoiceRow, p: Parties): string {
  const company = issuerCompany(row, p);
  if (company) return company.name;
  const resident = row.sender_entity_id !== null ? p.residents.get(row.sender_entity_id) : undefined;
  const user = row.sender_user_id !== null ? p.users.get(row.sender_user_id) : undefined;
  return (
    personName(resident?.first_name, resident?.last_name) ??
    personName(user?.first_name, user?.last_name) ??
    resident?.email ??
    "-"
  );
}

/** company or cooperative, then resident real name, then user name, then email (the given one, else the user's). */
export function recipientNameOf(row: ZoneInvoiceRow, p: Parties): string {
  const id = row.recipient_entity_id;
  const company = id !== null && row.recipient_entity_type !== "resident" ? p.companies.get(id) : undefined;
  const resident = id !== null && row.recipient_entity_type === "resident" ? p.residents.get(id) : undefined;
  const user = row.recipient_user_id !== null ? p.users.get(row.recipient_user_id) : undefined;
  return recipientName({
    companyName: company?.name ?? null,
    residentName: personName(resident?.first_name, resident?.last_name),
    userName: personName(user?.first_name, user?.last_name),
    email: row.recipient_email ?? user?.email ?? null,
  });
}

export function toInvoiceResult(row: ZoneInvoiceRow, p: Parties): InvoiceResult {
  const company = issuerCompany(row, p);
  return {
    sid: row.sid,
    fzc_id: row.fzc_id,
    invoice_number: row.invoice_number,
    reseller_invoice_id: row.reseller_invoice_id,
    status: row.status,
    amount: row.amount,
    tax_amount: row.tax_amount,
    total_amount: totalAmount(row.amount, row.tax_amount),
    currency: row.currency,
    description: row.description,
    line_items: row.line_items,
    issue_date: row.issue_date.toISOString(),
    due_date: row.due_date.toISOString(),
    sender_user_id: row.sender_user_id,
    sender_entity_type: row.sender_entity_type,
    sender_entity_id: row.sender_entity_id,
    recipient_user_id: row.recipient_user_id,
    recipient_entity_type: row.recipient_entity_type,
    recipient_entity_id: row.recipient_entity_id,
    recipient_email: row.recipient_email,
    // security_answer (sealed) is set to null by the dispatcher on the way out (x-secret, src/rpc/result-secrets.ts).
    payment_instructions: row.payment_instructions,
    sender_message: row.sender_message,
    payment_method: row.payment_method,
    payment_reference: row.payment_reference,
    sent_at: row.sent_at?.toISOString() ?? null,
    paid_at: row.paid_at?.toISOString() ?? null,
    cancelled_at: row.cancelled_at?.toISOString() ?? null,
    cancellation_reason: row.cancellation_reason,
    issuer_name: company?.name ?? null,
    issuer_registration_number: company ? company.registration_number || null : null,
    recipient_name: recipientNameOf(row, p),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** One row, its parties read for it. */
export async function invoiceResult(em: EntityManager, row: ZoneInvoiceRow): Promise<InvoiceResult> {
  return toInvoiceResult(row, await loadParties(em, [row]));
}

export function toDefaultResult(row: InvoicePaymentDefaultRow): InvoicePaymentDefaultResult {
  return {
    sid: row.sid,
    owner_user_id: row.owner_user_id,
    sender_entity_type: row.sender_entity_type,
    sender_entity_id: row.sender_entity_id,
    currency: row.currency,
    label: row.label,
    payment_instructions: row.payment_instructions,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
