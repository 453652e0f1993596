import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import {
  CompanyMessageEntity,
  DigitalResidentEntity,
  type DigitalResidentRow,
  InvoicePaymentDefaultEntity,
  type InvoicePaymentDefaultRow,
  UserEntity,
  UserMessageEntity,
  type UserRow,
  ZoneCompanyEntity,
  type ZoneCompanyRow,
  ZoneInvoiceEntity,
  type ZoneInvoiceRow,
} from "../../generated/entities.ts";
import type { InvoiceStatus } from "../../generated/types.ts";
import { affected, sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { writeCompanyMessageAudience } from "./document-audiences.ts";

/** The ZoneInvoice and InvoicePaymentDefault tables, and the party reads invoices resolve names and addresses from. */

/** The most invoices one list answers (newest first). */
export const INVOICE_LIST_LIMIT = 1000;

/** The most payment defaults one owner's list answers. */
export const PAYMENT_DEFAULT_LIST_LIMIT = 200;

export function findInvoice(em: EntityManager, invoiceId: string): Promise<ZoneInvoiceRow | null> {
  return em.findOne(ZoneInvoiceEntity, { sid: invoiceId }, { disableIdentityMap: true });
}

/** A company's invoices, or a resident's person-to-person invoices; newest first, at most INVOICE_LIST_LIMIT. */
export function listInvoices(
  em: EntityManager,
  issuer: { fzcId: string } | { residentId: string },
): Promise<ZoneInvoiceRow[]> {
  const where =
    "fzcId" in issuer
      ? { fzc_id: issuer.fzcId }
      : { fzc_id: "", sender_entity_type: null, sender_entity_id: issuer.residentId };
  return em.find(ZoneInvoiceEntity, where, {
    orderBy: { sid: "desc" },
    limit: INVOICE_LIST_LIMIT,
    disableIdentityMap: true,
  });
}

/** Whether the issuer already has an invoice with this number. */
export async function numberTaken(em: EntityManager, issuerId: string, invoiceNumber: string): Promise<boolean> {
  return (await em.count(ZoneInvoiceEntity, { sender_entity_id: issuerId, invoice_number: invoiceNumber })) > 0;
}

/** Inserts the invoice now; false when the issuer's number is taken (the unique index decides a race). */
export async function insertInvoice(em: EntityManager, row: ZoneInvoiceRow): Promise<boolean> {
  try {
    await em.insert(ZoneInvoiceEntity, row);
    return true;
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) return false;
    throw err;
  }
}

export type InvoiceChanges = Partial<Omit<ZoneInvoiceRow, "sid" | "status" | "created_at">>;

/** Changes a draft only while it is still one; false when it no longer is; throws on a taken number. */
export async function updateDraft(
  em: EntityManager,
  invoiceId: string,
  changes: InvoiceChanges,
  now: Date,
): Promise<boolean | "number_taken"> {
  try {
    const n = await em.nativeUpdate(
      ZoneInvoiceEntity,
      { sid: invoiceId, status: "draft" },
      { ...changes, updated_at: now },
    );
    return n === 1;
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) return "number_taken";
    throw err;
  }
}

export async function deleteDraft(em: EntityManager, invoiceId: string): Promise<boolean> {
  return (await affected(em, `delete from "zone_invoice" where sid = ? and status = 'draft'`, [invoiceId])) === 1;
}

export type InvoiceMoveFields = Partial<
  Pick<
    ZoneInvoiceRow,
    | "payment_method"
    | "payment_reference"
    | "paid_at"
    | "sent_at"
    | "sender_message"
    | "cancelled_at"
    | "cancellation_reason"
  >
>;

/** The conditional move `from -> to`: true when this call made it. */
export async function moveInvoice(
  em: EntityManager,
  invoiceId: string,
  from: readonly InvoiceStatus[],
  to: InvoiceStatus,
  fields: InvoiceMoveFields,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    ZoneInvoiceEntity,
    { sid: invoiceId, status: { $in: [...from] } },
    { ...fields, status: to, updated_at: now },
  );
  return n === 1;
}

/** Sent invoices due before `now` become overdue; answers their sids. */
export async function markOverdue(em: EntityManager, now: Date): Promise<string[]> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `update "zone_invoice" set status = 'overdue', updated_at = ? where status = 'sent' and due_date < ? returning sid`,
    [now, now],
  );
  return rows.map((r) => r.sid);
}

export type CompanyFacts = Pick<
  ZoneCompanyRow,
  "company_id" | "name" | "registration_number" | "company_type" | "email" | "logo_url" | "user_id" | "partner_id"
>;
export type ResidentFacts = Pick<
  DigitalResidentRow,
  "resident_id" | "first_name" | "last_name" | "email" | "user_id" | "partner_id"
>;
export type UserFacts = Pick<UserRow, "sid" | "first_name" | "last_name" | "email">;

export function companiesById(em: EntityManager, ids: readonly string[]): Promise<CompanyFacts[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return em.find(
    ZoneCompanyEntity,
    { company_id: { $in: [...new Set(ids)] } },
    {
      fields: [
        "company_id",
        "name",
        "registration_number",
        "company_type",
        "email",
        "logo_url",
        "user_id",
        "partner_id",
      ],
      disableIdentityMap: true,
    },
  );
}

export function residentsById(em: EntityManager, ids: readonly string[]): Promise<ResidentFacts[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return em.find(
    DigitalResidentEntity,
    { resident_id: { $in: [...new Set(ids)] } },
    { fields: ["resident_id", "first_name", "last_name", "email", "user_id", "partner_id"], disableIdentityMap: true },
  );
}

export function usersById(em: EntityManager, ids: readonly string[]): Promise<UserFacts[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return em.find(
    UserEntity,
    { sid: { $in: [...new Set(ids)] } },
    { fields: ["sid", "first_name", "last_name", "email"], disableIdentityMap: true },
  );
}

/** The in-platform recipient's inbox: a user message, or a company message for a company recipient. */
export function postInvoiceMessage(
  em: EntityManager,
  to: { userId: string } | { companyId: string },
  title: string,
  body: string,
  now: Date,
): void {
  const common = {
    sid: uuidv7(now),
    title,
    body,
    message_type: "notification" as const,
    category: "payment" as const,
    action_url: null,
    action_label: null,
    is_read: false,
    created_at: now,
    updated_at: now,
  };
  if ("userId" in to) em.create(UserMessageEntity, { ...common, user_id: to.userId });
  else {
    em.create(CompanyMessageEntity, { ...common, company_id: to.companyId });
    // Company messages are read through the visibility rule: each needs its audience row (as postCompanyMessage).
    writeCompanyMessageAudience(em, { sid: common.sid, companyId: to.companyId, createdBy: to.companyId }, now);
  }
}

export interface DefaultKey {
  owner_user_id: string;
  sender_entity_type: "company" | "cooperative" | null;
  sender_entity_id: string | null;
  currency: string | null;
}

/** The owner's defaults, newest first; `currency` also matches the any-currency ones. */
export function listDefaults(
  em: EntityManager,
  ownerUserId: string,
  filter: { senderEntityType?: string | undefined; senderEntityId?: string | undefined; currency?: string | undefined },
): Promise<InvoicePaymentDefaultRow[]> {
  return em.find(
    InvoicePaymentDefaultEntity,
    {
      owner_user_id: ownerUserId,
      ...(filter.senderEntityType !== undefined
        ? { sender_entity_type: filter.senderEntityType as "company" | "cooperative" }
        : {}),
      ...(filter.senderEntityId !== undefined ? { sender_entity_id: filter.senderEntityId } : {}),
      ...(filter.currency !== undefined ? { $or: [{ currency: filter.currency }, { currency: null }] } : {}),
    },
    { orderBy: { sid: "desc" }, limit: PAYMENT_DEFAULT_LIST_LIMIT, disableIdentityMap: true },
  );
}

export function findDefault(em: EntityManager, defaultId: string): Promise<InvoicePaymentDefaultRow | null> {
  return em.findOne(InvoicePaymentDefaultEntity, { sid: defaultId }, { disableIdentityMap: true });
}

/** The owner's default for exactly this (sender entity, currency) combination, nulls compared as equal. */
export function findDefaultFor(em: EntityManager, key: DefaultKey): Promise<InvoicePaymentDefaultRow | null> {
  return em.findOne(
    InvoicePaymentDefaultEntity,
    {
      owner_user_id: key.owner_user_id,
      sender_entity_type: key.sender_entity_type,
      sender_entity_id: key.sender_entity_id,
      currency: key.currency,
    },
    { orderBy: { sid: "desc" }, disableIdentityMap: true },
  );
}

export async function insertDefault(em: EntityManager, row: InvoicePaymentDefaultRow): Promise<void> {
  await em.insert(InvoicePaymentDefaultEntity, row);
}

export async function replaceDefault(
  em: EntityManager,
  defaultId: string,
  changes: Pick<InvoicePaymentDefaultRow, "label" | "payment_instructions">,
  now: Date,
): Promise<void> {
  await em.nativeUpdate(InvoicePaymentDefaultEntity, { sid: defaultId }, { ...changes, updated_at: now });
}

export async function deleteDefault(em: EntityManager, defaultId: string, ownerUserId: string): Promise<boolean> {
  return (await em.nativeDelete(InvoicePaymentDefaultEntity, { sid: defaultId, owner_user_id: ownerUserId })) === 1;
}
