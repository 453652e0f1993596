import type { ZoneCompanyRow, ZoneInvoiceRow } from "../../../generated/entities.ts";
import type { Targeted } from "../../../generated/policy.ts";
import { companyRoles } from "../../auth/access.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { callerMayView } from "../../repos/document-audiences.ts";
import * as invoices from "../../repos/invoices.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/**
 * What the InvoiceService use cases share: the error factory, the issuer of a new invoice (a company or
 * cooperative by fzc_id, or a resident person to person), and who may see or act on an existing invoice.
 */

export const invoiceError = errorsFor("InvoiceService", "InvoiceError");

export function refused(r: Refusal<"InvalidInput" | "InvalidState" | "InvalidAmount">): Error {
  return invoiceError(r.refusal, r.message, r.details);
}

/** Who issues an invoice: `entityId` is the company id (= fzc_id) or, person to person, the resident id. */
export interface Issuer {
  fzcId: string;
  entityType: "company" | "cooperative" | null;
  entityId: string;
}

/** Cooperatives are companies whose type is a cooperative one. */
export function entityTypeOf(companyType: string): "company" | "cooperative" {
  return companyType.startsWith("coop_") ? "cooperative" : "company";
}

/** Whether the caller owns the resident (the pair user_id, partner_id). */
export async function ownsResident(ctx: RpcContext, residentId: string): Promise<boolean> {
  const caller = requireCaller(ctx);
  const [resident] = await invoices.residentsById(ctx.em, [residentId]);
  return resident !== undefined && resident.user_id === caller.userId && resident.partner_id === caller.partnerId;
}

/**
 * The issuer `fzc_id` names, as the dispatcher resolved it (`x-target` ZoneCompany with `foreignResident`,
 * docs/authorization.md): a company or cooperative whose role rule and status the dispatcher checked, or, person
 * to person, a resident the caller owns.
 */
export async function resolveIssuer(
  ctx: Targeted<RpcContext, ZoneCompanyRow | null>,
  issuerId: string,
): Promise<Issuer> {
  const company = ctx.target.row;
  if (company) return { fzcId: issuerId, entityType: entityTypeOf(company.company_type), entityId: issuerId };
  return { fzcId: "", entityType: null, entityId: issuerId };
}

/** delete's invoice (its target is the issuer fzc_id names), or NotFound. */
export async function loadInvoice(ctx: RpcContext, invoiceId: string): Promise<ZoneInvoiceRow> {
  const row = await invoices.findInvoice(ctx.em, invoiceId);
  if (!row) throw invoiceError.notFound("invoice");
  return row;
}

/**
 * Who sees an invoice (get, preview_invoice_email; the dispatcher loaded it, `x-target` ZoneInvoice without a role):
 * the issuer side (the issuing company's members the visibility rule lets view it, the owner of the issuing
 * resident, the sender user) and the
 * recipient side (the recipient user, the owner of the recipient resident, members of the recipient company);
 * administrators too. Visibility reaching people outside the issuing company, so not x-target's role rule. The
 * writes (update, send_draft, mark_paid) are the dispatcher's: director of the issuing company or owner of the
 * issuing resident, the company operable (x-target role director, operable, foreignResident NotFound).
 */
export async function maySee(ctx: RpcContext, row: ZoneInvoiceRow): Promise<boolean> {
  const caller = requireCaller(ctx);
  if (isAdminSession(caller)) return true;
  if (row.sender_user_id === caller.userId || row.recipient_user_id === caller.userId) return true;
  if (row.sender_entity_type === null) {
    if (row.sender_entity_id !== null && (await ownsResident(ctx, row.sender_entity_id))) return true;
  } else if (
    (await callerMayView(ctx.em, caller, { documentType: "invoice", documentRef: row.sid }, ctx.now())).canView
  ) {
    // The issuing company's side reads through the visibility rule (issue 30), as invoiceservice.list does.
    return true;
  }
  const type = row.recipient_entity_type;
  const id = row.recipient_entity_id;
  if (type === null || id === null) return false;
  if (type === "resident") return ownsResident(ctx, id);
  return isMember(ctx, id);
}

async function isMember(ctx: RpcContext, companyId: string): Promise<boolean> {
  const held = await companyRoles(ctx.em, requireCaller(ctx), companyId, ctx.now());
  return held !== null && held.length > 0;
}

/** An administrator's write on an invoice, recorded (the dispatcher let the session through). */
export function recordIfAdmin(ctx: RpcContext, action: string, row: ZoneInvoiceRow, details: Record<string, unknown>) {
  if (!isAdminSession(requireCaller(ctx))) return;
  recordAdminAction(ctx, {
    action,
    targetType: "invoice",
    targetId: row.sid,
    details: { fzc_id: row.fzc_id, sender_entity_id: row.sender_entity_id, ...details },
  });
}
