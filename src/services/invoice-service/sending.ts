import type { EntityManager } from "@mikro-orm/postgresql";
import type { ZoneInvoiceRow } from "../../../generated/entities.ts";
import type { InvoiceServiceHandlers } from "../../../generated/handlers/index.ts";
import type { InvoiceResult } from "../../../generated/types.ts";
import { renderInvoicePdf } from "../../documents/invoice-pdf.ts";
import {
  draftOnlyRefusal,
  INVOICE_MOVES,
  invoiceFilename,
  redactInstructions,
  senderMessage,
  totalAmount,
} from "../../domain/invoices.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { sendEmail } from "../../integrations/email/index.ts";
import { invoiceMessage } from "../../integrations/email/templates.ts";
import * as invoices from "../../repos/invoices.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";
import { invoiceError, maySee, recordIfAdmin, refused, resolveIssuer } from "./common.ts";
import {
  invoiceResult,
  issuerCompany,
  issuerDisplayName,
  loadParties,
  type Parties,
  recipientNameOf,
} from "./mappers.ts";
import { insertNewInvoice, newInvoiceFields, newInvoiceSid } from "./prepare.ts";

/**
 * preview_invoice_email, send_draft and send_invoice: one composition (`compose`) for the preview and the send, so
 * the preview shows exactly what would go out. A send moves the draft to `sent`, posts to an in-platform recipient's
 * inbox and emails through the outbox with the PDF attached, all in the call's transaction: a failed email rolls
 * the move back (the invoice stays a draft), keeping only the note (send_draft) or the new draft (send_invoice).
 */

type H = InvoiceServiceHandlers<RpcContext>;

/** Where the email goes: the given address, else the recipient user's, the recipient resident's, the company's. */
function recipientAddress(row: ZoneInvoiceRow, p: Parties): string | null {
  if (row.recipient_email) return row.recipient_email;
  const user = row.recipient_user_id !== null ? p.users.get(row.recipient_user_id) : undefined;
  if (user?.email) return user.email;
  const id = row.recipient_entity_id;
  if (id === null) return null;
  if (row.recipient_entity_type === "resident") return p.residents.get(id)?.email || null;
  return p.companies.get(id)?.email || null;
}

/** The in-platform inbox the invoice is posted to: the recipient user, the resident's owner, or the company. */
function recipientInbox(row: ZoneInvoiceRow, p: Parties): { userId: string } | { companyId: string } | null {
  if (row.recipient_user_id !== null && p.users.has(row.recipient_user_id)) return { userId: row.recipient_user_id };
  const id = row.recipient_entity_id;
  if (id === null) return null;
  if (row.recipient_entity_type === "resident") {
    const owner = p.residents.get(id)?.user_id;
    return owner ? { userId: owner } : null;
  }
  return p.companies.has(id) ? { companyId: id } : null;
}

interface Composed {
  to: string | null;
  message: ReturnType<typeof invoiceMessage> | null;
  filename: string;
  parties: Parties;
}

async function compose(em: EntityManager, row: ZoneInvoiceRow, note: string | null): Promise<Composed> {
  const parties = await loadParties(em, [row]);
  const to = recipientAddress(row, parties);
  const replyTo = row.sender_user_id !== null ? (parties.users.get(row.sender_user_id)?.email ?? null) : null;
  const message =
    to === null
      ? null
      : invoiceMessage({
          to,
          replyTo,
          issuerName: issuerDisplayName(row, parties),
          recipientName: recipientNameOf(row, parties),
          invoiceNumber: row.invoice_number,
          totalAmount: totalAmount(row.amount, row.tax_amount),
          currency: row.currency,
          dueDate: row.due_date,
          senderMessage: note,
        });
  return { to, message, filename: invoiceFilename(row.invoice_number), parties };
}

function pdfOf(row: ZoneInvoiceRow, p: Parties): Promise<Buffer> {
  const company = issuerCompany(row, p);
  return renderInvoicePdf({
    invoiceNumber: row.invoice_number,
    issuerName: issuerDisplayName(row, p),
    issuerRegistrationNumber: company?.registration_number || null,
    logoUrl: company?.logo_url ?? null,
    recipientName: recipientNameOf(row, p),
    description: row.description,
    currency: row.currency,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    lineItems: row.line_items,
    amount: row.amount,
    taxAmount: row.tax_amount,
    totalAmount: totalAmount(row.amount, row.tax_amount),
    paymentInstructions: row.payment_instructions ? redactInstructions(row.payment_instructions) : null,
  });
}

export const previewInvoiceEmail: H["previewInvoiceEmail"] = async (ctx, { sender_user_id }) => {
  const row = ctx.target.row;
  if (!(await maySee(ctx, row))) throw invoiceError.notFound("invoice");
  if (row.sender_user_id !== sender_user_id) {
    throw invoiceError("NotOwner", "only the invoice's sender may preview its email");
  }
  const { message, filename } = await compose(ctx.em, row, row.sender_message);
  if (message === null) throw invoiceError("InvalidState", "the invoice has no recipient address");
  return {
    invoice_id: row.sid,
    to: message.to,
    reply_to: message.replyTo ?? null,
    subject: message.subject,
    text_body: message.bodyText,
    html_body: message.bodyHtml,
    sender_message: row.sender_message,
    attachment_filename: filename,
  };
};

/** Moves the draft to sent, posts to the inbox and emails it; a failed email throws (the call rolls back). */
async function deliver(ctx: RpcContext, row: ZoneInvoiceRow): Promise<InvoiceResult> {
  const { message, filename, parties } = await compose(ctx.em, row, row.sender_message);
  if (message === null) {
    throw invoiceError("InvalidInput", "the invoice has no recipient address", { field: "recipient_email" });
  }
  const now = ctx.now();
  const { from, to } = INVOICE_MOVES.send;
  if (!(await invoices.moveInvoice(ctx.em, row.sid, from, to, { sent_at: now }, now))) {
    throw invoiceError("InvalidState", "the invoice is no longer a draft");
  }
  const inbox = recipientInbox(row, parties);
  const total = `${totalAmount(row.amount, row.tax_amount).toFixed(2)} ${row.currency}`;
  if (inbox) {
    const title = `Invoice ${row.invoice_number} from ${issuerDisplayName(row, parties)}`;
    invoices.postInvoiceMessage(
      ctx.em,
      inbox,
      title,
      `${title}: ${total}, due ${row.due_date.toISOString().slice(0, 10)}.`,
      now,
    );
  }
  const pdf = await pdfOf(row, parties);
  await sendEmail(ctx, "InvoiceError", {
    ...message,
    attachment: { filename, contentType: "application/pdf", content: pdf },
  });
  return invoiceResult(ctx.em, { ...row, status: to, sent_at: now, updated_at: now });
}

export const sendDraft: H["sendDraft"] = async (ctx, { sender_message }) => {
  const row = ctx.target.row;
  const notDraft = draftOnlyRefusal(row.status, "sent");
  if (notDraft) throw refused(notDraft);
  let current = row;
  if (sender_message !== undefined) {
    const note = senderMessage(sender_message);
    if (isRefusal(note)) throw refused(note);
    const now = ctx.now();
    // The note is kept even when the email then fails, so the retry carries it.
    const store = (em: EntityManager) => invoices.updateDraft(em, row.sid, { sender_message: note }, now);
    await store(ctx.em);
    ctx.keepOnRollback(async (em) => {
      await store(em);
    });
    current = { ...row, sender_message: note, updated_at: now };
  }
  const result = await deliver(ctx, current);
  recordIfAdmin(ctx, "send_invoice", row, {});
  return result;
};

export const sendInvoice: H["sendInvoice"] = async (ctx, { fzc_id, data, sender_message }) => {
  const issuer = await resolveIssuer(ctx, fzc_id);
  const fields = await newInvoiceFields(ctx, issuer, data, sender_message);
  const now = ctx.now();
  const sid = newInvoiceSid(now);
  const row = await insertNewInvoice(ctx.em, fields, sid, now);
  try {
    const result = await deliver(ctx, row);
    recordIfAdmin(ctx, "send_invoice", row, { amount: row.amount, currency: row.currency });
    return result;
  } catch (err) {
    if (!(err instanceof RpcError) || err.data?.variant !== "ProviderUnavailable") throw err;
    // The draft outlives the failed send (made again after the rollback, numbered the same way).
    ctx.keepOnRollback(async (em) => {
      await insertNewInvoice(em, fields, sid, now);
    });
    throw invoiceError("ProviderUnavailable", err.message, { invoice_id: sid });
  }
};
