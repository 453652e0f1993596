import type { EntityManager } from "@mikro-orm/postgresql";
import type { ZoneInvoiceRow } from "../../../generated/entities.ts";
import type { CreateInvoiceData, InvoicePaymentInstructions, UpdateInvoiceData } from "../../../generated/types.ts";
import { sealSecret } from "../../auth/secret-box.ts";
import { uuidv7 } from "../../domain/ids.ts";
import {
  currencyRefusal,
  datesRefusal,
  formatInvoiceNumber,
  INVOICE_AUDIENCE_RULE,
  INVOICE_CLASSIFICATION,
  invoiceCounterName,
  invoiceTotals,
  recipientRefusal,
  senderMessage,
} from "../../domain/invoices.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { takeNumber } from "../../repos/counters.ts";
import { writeAudience } from "../../repos/document-audiences.ts";
import * as invoices from "../../repos/invoices.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { type Issuer, invoiceError, refused } from "./common.ts";

/**
 * The checked fields of a new or edited invoice: server totals (exact cents), recipient, currency, dates, the
 * sealed payment instructions (or a stored default copied verbatim), the note. Refusals throw before anything is
 * written.
 */

export type InvoiceFields = Omit<
  ZoneInvoiceRow,
  | "sid"
  | "status"
  | "invoice_number"
  | "payment_method"
  | "payment_reference"
  | "paid_at"
  | "sent_at"
  | "cancelled_at"
  | "cancellation_reason"
  | "created_at"
  | "updated_at"
>;

/** The client's instructions sealed, or the caller's stored default copied verbatim, or none. */
async function instructions(
  ctx: RpcContext,
  given: InvoicePaymentInstructions | null | undefined,
  defaultId: string | null | undefined,
): Promise<InvoicePaymentInstructions | null | undefined> {
  if (given !== undefined && given !== null) {
    const answer = given.security_answer?.trim() ?? "";
    return { ...given, security_answer: answer ? sealSecret(ctx.config.encryptionKey, answer) : null };
  }
  if (defaultId !== undefined && defaultId !== null) {
    const stored = await invoices.findDefault(ctx.em, defaultId);
    if (!stored || stored.owner_user_id !== requireCaller(ctx).userId) {
      throw invoiceError("InvalidInput", "unknown payment_default_id", { field: "payment_default_id" });
    }
    return stored.payment_instructions;
  }
  return given;
}

const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

/** A new invoice's fields for the issuer; `note` overrides data.sender_message (send_invoice's param). */
export async function newInvoiceFields(
  ctx: RpcContext,
  issuer: Issuer,
  data: CreateInvoiceData,
  note?: string,
): Promise<InvoiceFields & { invoice_number: string | null }> {
  const merged = {
    line_items: data.line_items,
    amount: orNull(data.amount),
    tax_amount: orNull(data.tax_amount),
    recipient_user_id: orNull(data.recipient_user_id),
    recipient_entity_type: orNull(data.recipient_entity_type),
    recipient_entity_id: orNull(data.recipient_entity_id),
    recipient_email: orNull(data.recipient_email),
    currency: data.currency,
    issue_date: data.issue_date ? new Date(data.issue_date) : ctx.now(),
    due_date: new Date(data.due_date),
  };
  const checked = check(merged);
  const message = senderMessage(note ?? data.sender_message);
  if (isRefusal(message)) throw refused(message);
  const description = data.description.trim();
  if (description.length === 0) throw invoiceError("InvalidInput", "description must not be blank");
  return {
    ...checked,
    fzc_id: issuer.fzcId,
    reseller_invoice_id: data.reseller_invoice_id?.trim() ?? "",
    description,
    sender_user_id: requireCaller(ctx).userId,
    sender_entity_type: issuer.entityType,
    sender_entity_id: issuer.entityId,
    ...recipientAndDates(merged),
    payment_instructions: orNull(await instructions(ctx, data.payment_instructions, data.payment_default_id)),
    sender_message: message,
    invoice_number: givenNumber(data.invoice_number),
  };
}

function givenNumber(raw: string | null | undefined): string | null {
  const n = raw?.trim() ?? "";
  return n.length > 0 ? n : null;
}

type Checked = Parameters<typeof recipientRefusal>[0] & {
  line_items: CreateInvoiceData["line_items"];
  amount: number | null;
  tax_amount: number | null;
  currency: string;
  issue_date: Date;
  due_date: Date;
};

/** The recipient, currency and dates of a checked invoice, as stored. */
function recipientAndDates(m: Checked) {
  return {
    recipient_user_id: m.recipient_user_id,
    recipient_entity_type: m.recipient_entity_type,
    recipient_entity_id: m.recipient_entity_id,
    recipient_email: m.recipient_email,
    currency: m.currency,
    issue_date: m.issue_date,
    due_date: m.due_date,
  };
}

/** Amounts first (a bad figure is always InvalidAmount), then recipient, currency and dates. */
function check(m: Checked): Pick<ZoneInvoiceRow, "line_items" | "amount" | "tax_amount"> {
  const totals = invoiceTotals(m);
  if (isRefusal(totals)) throw refused(totals);
  const bad = recipientRefusal(m) ?? currencyRefusal(m.currency) ?? datesRefusal(m.issue_date, m.due_date);
  if (bad) throw refused(bad);
  return totals;
}

/**
 * The changes an update makes to a draft, checked against the merged invoice: absent fields stay, null clears.
 * With line items (given or kept) amount and tax are recomputed unless given (then they must agree).
 */
export async function updatedFields(
  ctx: RpcContext,
  row: ZoneInvoiceRow,
  data: UpdateInvoiceData,
): Promise<invoices.InvoiceChanges> {
  const pick = <K extends keyof UpdateInvoiceData & keyof ZoneInvoiceRow>(k: K) =>
    (data[k] !== undefined ? data[k] : row[k]) as ZoneInvoiceRow[K];
  const lines = data.line_items ?? row.line_items;
  // New lines (even none) or kept lines: the figures come from the lines, or must be given again.
  const recompute = lines.length > 0 || data.line_items !== undefined;
  const merged: Checked = {
    line_items: lines,
    amount: data.amount !== undefined ? data.amount : recompute ? null : row.amount,
    tax_amount: data.tax_amount !== undefined ? data.tax_amount : recompute ? null : row.tax_amount,
    recipient_user_id: pick("recipient_user_id"),
    recipient_entity_type: pick("recipient_entity_type"),
    recipient_entity_id: pick("recipient_entity_id"),
    recipient_email: pick("recipient_email"),
    currency: data.currency ?? row.currency,
    issue_date: data.issue_date ? new Date(data.issue_date) : row.issue_date,
    due_date: data.due_date ? new Date(data.due_date) : row.due_date,
  };
  const checked = check(merged);
  const changes: invoices.InvoiceChanges = {
    ...checked,
    ...recipientAndDates(merged),
  };
  if (data.description !== undefined) {
    const description = data.description.trim();
    if (description.length === 0) throw invoiceError("InvalidInput", "description must not be blank");
    changes.description = description;
  }
  if (data.reseller_invoice_id !== undefined) changes.reseller_invoice_id = data.reseller_invoice_id?.trim() ?? "";
  if (data.sender_message !== undefined) {
    const message = senderMessage(data.sender_message);
    if (isRefusal(message)) throw refused(message);
    changes.sender_message = message;
  }
  const pi = await instructions(ctx, data.payment_instructions, data.payment_default_id);
  if (pi !== undefined) changes.payment_instructions = pi;
  if (data.invoice_number !== undefined) {
    const wanted = givenNumber(data.invoice_number);
    if (wanted !== null && wanted !== row.invoice_number) {
      if (row.sender_entity_id !== null && (await invoices.numberTaken(ctx.em, row.sender_entity_id, wanted))) {
        throw invoiceError("AlreadyExists", `invoice number ${wanted} is taken`, { field: "invoice_number" });
      }
      changes.invoice_number = wanted;
    }
  }
  return changes;
}

/**
 * Numbers and inserts the invoice with its DocumentAudience row (company invoices): a given number must be free
 * (AlreadyExists), else the issuer's counter gives the next one (gap-free: the counter row stays locked until the
 * call commits, and a rolled back call gives its number back); a number someone chose by hand is skipped.
 */
export async function insertNewInvoice(
  em: EntityManager,
  fields: InvoiceFields & { invoice_number: string | null },
  sid: string,
  now: Date,
): Promise<ZoneInvoiceRow> {
  const issuerId = fields.sender_entity_id as string;
  let number = fields.invoice_number;
  if (number !== null) {
    if (await invoices.numberTaken(em, issuerId, number)) {
      throw invoiceError("AlreadyExists", `invoice number ${number} is taken`, { field: "invoice_number" });
    }
  } else {
    do {
      number = formatInvoiceNumber(await takeNumber(em, invoiceCounterName(issuerId), now));
    } while (await invoices.numberTaken(em, issuerId, number));
  }
  const row: ZoneInvoiceRow = {
    ...fields,
    sid,
    invoice_number: number,
    status: "draft",
    payment_method: null,
    payment_reference: null,
    paid_at: null,
    sent_at: null,
    cancelled_at: null,
    cancellation_reason: null,
    created_at: now,
    updated_at: now,
  };
  if (!(await invoices.insertInvoice(em, row))) {
    throw invoiceError("AlreadyExists", `invoice number ${number} is taken`, { field: "invoice_number" });
  }
  if (row.sender_entity_type !== null) {
    writeAudience(
      em,
      {
        documentRef: row.sid,
        documentType: "invoice",
        companyId: row.fzc_id,
        classification: INVOICE_CLASSIFICATION,
        rule: INVOICE_AUDIENCE_RULE,
        relevantFrom: now,
        createdBy: row.sender_user_id ?? "",
      },
      now,
    );
  }
  return row;
}

export const newInvoiceSid = (now: Date) => uuidv7(now);
