import type { ZoneCompanyRow, ZoneInvoiceRow } from "../../../generated/entities.ts";
import type { Targeted } from "../../../generated/policy.ts";
import { companyRoles, satisfiesCompanyRole } from "../../auth/access.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { recordAdminAction } from "../../repos/admin-actions.ts";
import { requireCompanyOperable } from "../../repos/companies.ts";
import * as invoices from "../../repos/invoices.ts";
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

/** The company status guard (src/domain/company-status.ts): a company that may not operate issues nothing. */
export function requireOperableIssuer(ctx: RpcContext, fzcId: string): Promise<void> {
  return requireCompanyOperable(ctx.em, fzcId, (r) => invoiceError(r.refusal, r.message, r.details));
}

/** The invoice, or NotFound. */
export async function loadInvoice(ctx: RpcContext, invoiceId: string): Promise<ZoneInvoiceRow> {
  const row = await invoices.findInvoice(ctx.em, invoiceId);
  if (!row) throw invoiceError.notFound("invoice");
  return row;
}

/** Whether the caller may act for the invoice's issuer: director of the company, or owner of the issuing resident. */
async function issuerStanding(ctx: RpcContext, row: ZoneInvoiceRow): Promise<"acts" | "member" | "none"> {
  const caller = requireCaller(ctx);
  if (isAdminSession(caller)) return "acts";
  if (row.sender_entity_type === null) {
    return row.sender_entity_id !== null && (await ownsResident(ctx, row.sender_entity_id)) ? "acts" : "none";
  }
  const held = await companyRoles(ctx.em, caller, row.fzc_id, ctx.now());
  if (held === null || held.length === 0) return "none";
  return satisfiesCompanyRole(held, "director") ? "acts" : "member";
}

/**
 * The get rule: members of the issuing company, the sender user, the issuing resident's owner, and the recipient
 * side (the recipient user, the recipient resident's owner, members of the recipient company); administrators too.
 */
export async function maySee(ctx: RpcContext, row: ZoneInvoiceRow): Promise<boolean> {
  const caller = requireCaller(ctx);
  if (row.sender_user_id === caller.userId || row.recipient_user_id === caller.userId) return true;
  if ((await issuerStanding(ctx, row)) !== "none") return true;
  const type = row.recipient_entity_type;
  const id = row.recipient_entity_id;
  if (type === null || id === null) return false;
  if (type === "resident") return ownsResident(ctx, id);
  const held = await companyRoles(ctx.em, caller, id, ctx.now());
  return held !== null && held.length > 0;
}

/**
 * Acting on an invoice (update, send, mark paid): the issuer's director or resident owner. Someone who may see it
 * otherwise is Forbidden; anyone else NotFound (no existence leak). A company issuer must be operable (InvalidState).
 */
export async function requireIssuerAuthority(ctx: RpcContext, row: ZoneInvoiceRow): Promise<void> {
  const standing = await issuerStanding(ctx, row);
  if (standing === "acts") {
    if (row.sender_entity_type !== null) await requireOperableIssuer(ctx, row.fzc_id);
    return;
  }
  if (standing === "member" || (await maySee(ctx, row))) {
    throw invoiceError("Forbidden", "only a director of the issuing company or the issuing resident's owner may");
  }
  throw invoiceError.notFound("invoice");
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
