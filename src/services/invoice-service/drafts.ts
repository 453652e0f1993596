import type { InvoiceServiceHandlers } from "../../../generated/handlers/index.ts";
import {
  draftOnlyRefusal,
  INVOICE_AUDIENCE_RULE,
  INVOICE_MOVES,
  markPaidDecision,
  moveRefusal,
} from "../../domain/invoices.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { closeAudience } from "../../repos/document-audiences.ts";
import * as invoices from "../../repos/invoices.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { invoiceError, loadInvoice, maySee, recordIfAdmin, refused, resolveIssuer } from "./common.ts";
import { invoiceResult, loadParties, toInvoiceResult } from "./mappers.ts";
import { insertNewInvoice, newInvoiceFields, newInvoiceSid, updatedFields } from "./prepare.ts";

/** list, create, get, update, delete and mark_paid (docs/handler-pattern.md: load, decide, apply, map). */

type H = InvoiceServiceHandlers<RpcContext>;

export const list: H["list"] = async (ctx, { fzc_id }) => {
  const issuer = await resolveIssuer(ctx, fzc_id);
  const rows = await invoices.listInvoices(
    ctx.em,
    issuer.entityType === null ? { residentId: issuer.entityId } : { fzcId: issuer.fzcId },
  );
  const parties = await loadParties(ctx.em, rows);
  return { items: rows.map((r) => toInvoiceResult(r, parties)) };
};

export const create: H["create"] = async (ctx, { fzc_id, data }) => {
  const issuer = await resolveIssuer(ctx, fzc_id);
  const fields = await newInvoiceFields(ctx, issuer, data);
  const now = ctx.now();
  const row = await insertNewInvoice(ctx.em, fields, newInvoiceSid(now), now);
  recordIfAdmin(ctx, "create_invoice", row, { amount: row.amount, currency: row.currency });
  return invoiceResult(ctx.em, row);
};

export const get: H["get"] = async (ctx) => {
  const row = ctx.target.row;
  if (!(await maySee(ctx, row))) throw invoiceError.notFound("invoice");
  return invoiceResult(ctx.em, row);
};

export const update: H["update"] = async (ctx, { data }) => {
  const row = ctx.target.row;
  const notDraft = draftOnlyRefusal(row.status, "edited");
  if (notDraft) throw refused(notDraft);
  const changes = await updatedFields(ctx, row, data);
  const now = ctx.now();
  const outcome = await invoices.updateDraft(ctx.em, row.sid, changes, now);
  if (outcome === "number_taken") throw invoiceError("AlreadyExists", "invoice number is taken");
  if (!outcome) throw invoiceError("InvalidState", "the invoice is no longer a draft");
  recordIfAdmin(ctx, "update_invoice", row, { fields: Object.keys(data) });
  return invoiceResult(ctx.em, { ...row, ...changes, updated_at: now });
};

export const remove: H["delete"] = async (ctx, { fzc_id, invoice_id }) => {
  const issuer = await resolveIssuer(ctx, fzc_id);
  const row = await loadInvoice(ctx, invoice_id);
  if (row.sender_entity_id !== issuer.entityId || row.fzc_id !== issuer.fzcId) throw invoiceError.notFound("invoice");
  const notDraft = draftOnlyRefusal(row.status, "deleted");
  if (notDraft) throw refused(notDraft);
  if (!(await invoices.deleteDraft(ctx.em, row.sid))) {
    throw invoiceError("InvalidState", "the invoice is no longer a draft");
  }
  const now = ctx.now();
  await closeAudience(ctx.em, "invoice", row.sid, now, INVOICE_AUDIENCE_RULE, requireCaller(ctx).userId);
  recordIfAdmin(ctx, "delete_invoice", row, {});
  return { sid: row.sid, deleted: true };
};

export const markPaid: H["markPaid"] = async (ctx, { payment_method, payment_reference }) => {
  const row = ctx.target.row;
  const now = ctx.now();
  const paid = markPaidDecision(row.status, payment_method, payment_reference, now);
  if (isRefusal(paid)) throw refused(paid);
  const { from, to } = INVOICE_MOVES.mark_paid;
  if (!(await invoices.moveInvoice(ctx.em, row.sid, from, to, paid, now))) {
    throw invoiceError("InvalidState", "the invoice is no longer sent or overdue");
  }
  recordIfAdmin(ctx, "mark_invoice_paid", row, { payment_method: paid.payment_method });
  return invoiceResult(ctx.em, { ...row, ...paid, status: to, updated_at: now });
};

/** The issuer withdraws a sent or overdue invoice (issue 30): `cancelled`, with when and why; never paid after. */
export const cancelInvoice: H["cancelInvoice"] = async (ctx, { reason }) => {
  const row = ctx.target.row;
  const why = reason.trim();
  if (why.length === 0) {
    throw invoiceError("InvalidInput", "reason must not be blank", { field: "reason" });
  }
  const refusal = moveRefusal(row.status, "cancel");
  if (refusal) throw refused(refusal);
  const now = ctx.now();
  const { from, to } = INVOICE_MOVES.cancel;
  const cancelled = { cancelled_at: now, cancellation_reason: why };
  if (!(await invoices.moveInvoice(ctx.em, row.sid, from, to, cancelled, now))) {
    throw invoiceError("InvalidState", "the invoice is no longer sent or overdue");
  }
  recordIfAdmin(ctx, "cancel_invoice", row, { reason: why });
  return invoiceResult(ctx.em, { ...row, ...cancelled, status: to, updated_at: now });
};
