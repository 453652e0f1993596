import type { EntityManager } from "@mikro-orm/postgresql";
import {
  CompanyMessageEntity,
  type DigitalResidentRow,
  UserMessageEntity,
  ZoneCompanyEntity,
  type ZoneCompanyRow,
} from "../../generated/entities.ts";
import type { MessageType } from "../../generated/types.ts";
import { affected, countRows, sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { findResident } from "./digital-residents.ts";
import { writeCompanyMessageAudience } from "./document-audiences.ts";

/**
 * The subscription rows renewals read and write: residents' and companies' subscription dates (locked for the
 * renewal's transaction, so concurrent renewals extend one after the other and none is lost), and the inbox
 * messages renewals post.
 */

/** The resident, row-locked until the transaction ends; null when it does not exist. */
export async function lockResident(em: EntityManager, residentId: string): Promise<DigitalResidentRow | null> {
  const rows = await sqlRows(em, `select 1 from "digital_resident" where resident_id = ? for update`, [residentId]);
  return rows.length > 0 ? findResident(em, residentId) : null;
}

/** The company by its formatted id, row-locked until the transaction ends; null when it does not exist. */
export async function lockCompany(em: EntityManager, companyId: string): Promise<ZoneCompanyRow | null> {
  const rows = await sqlRows(em, `select 1 from "zone_company" where company_id = ? for update`, [companyId]);
  if (rows.length === 0) return null;
  return em.findOne(ZoneCompanyEntity, { company_id: companyId }, { disableIdentityMap: true });
}

export interface SubscriptionDates {
  subscription_start_date: Date;
  subscription_end_date: Date;
}

/** The resident's new period (and plan when the renewal sets one); an expired resident is active again. */
export async function renewResidentRow(
  em: EntityManager,
  residentId: string,
  dates: SubscriptionDates & { subscription_plan: DigitalResidentRow["subscription_plan"] },
  now: Date,
): Promise<number> {
  return affected(
    em,
    `update "digital_resident" set subscription_start_date = ?, subscription_end_date = ?, subscription_plan = ?,
       status = 'active', updated_at = ?
     where resident_id = ? and status in ('active', 'expired')`,
    [dates.subscription_start_date, dates.subscription_end_date, dates.subscription_plan, now, residentId],
  );
}

/** The company's new period (and plan when the renewal sets one), while it is active or inactive: it is active after. */
export async function renewCompanyRow(
  em: EntityManager,
  companyId: string,
  dates: SubscriptionDates & { subscription_plan: ZoneCompanyRow["subscription_plan"] },
  now: Date,
): Promise<number> {
  return affected(
    em,
    `update "zone_company" set subscription_start_date = ?, subscription_end_date = ?, subscription_plan = ?,
       status = 'active', updated_at = ?
     where company_id = ? and status in ('active', 'inactive')`,
    [dates.subscription_start_date, dates.subscription_end_date, dates.subscription_plan, now, companyId],
  );
}

const SUBSCRIBERS = {
  resident: { table: "digital_resident", key: "resident_id" },
  company: { table: "zone_company", key: "company_id" },
} as const;

/** Active residents or companies with auto-renewal whose subscription ends in (now, horizon], soonest first. */
export async function dueForRenewal(
  em: EntityManager,
  kind: keyof typeof SUBSCRIBERS,
  now: Date,
  horizon: Date,
): Promise<string[]> {
  const { table, key } = SUBSCRIBERS[kind];
  const rows = await sqlRows<{ id: string }>(
    em,
    `select ${key} as id from "${table}"
     where auto_renewal = true and status = 'active' and subscription_end_date > ? and subscription_end_date <= ?
     order by subscription_end_date, ${key}`,
    [now, horizon],
  );
  return rows.map((r) => r.id);
}

export interface Message {
  title: string;
  body: string;
  messageType: MessageType;
}

/** The fields a renewal message has in either inbox: unread, category payment, no action. */
function messageFields(m: Message, now: Date) {
  return {
    sid: uuidv7(now),
    title: m.title,
    body: m.body,
    message_type: m.messageType,
    category: "payment" as const,
    action_url: null,
    action_label: null,
    is_read: false,
    created_at: now,
    updated_at: now,
  };
}

/** Posts a UserMessage (category payment) in the transaction. */
export async function postUserMessage(em: EntityManager, userId: string, m: Message, now: Date): Promise<void> {
  await em.insert(UserMessageEntity, { ...messageFields(m, now), user_id: userId });
}

/** Posts a CompanyMessage (category payment) in the transaction. */
/**
 * A message the platform posts to a company's inbox, with its audience row: company messages are read through the
 * visibility rule (decisions "Visibility of company records"), so a message without one would reach nobody.
 */
export async function postCompanyMessage(em: EntityManager, companyId: string, m: Message, now: Date): Promise<void> {
  const fields = messageFields(m, now);
  await em.insert(CompanyMessageEntity, { ...fields, company_id: companyId });
  writeCompanyMessageAudience(em, { sid: fields.sid, companyId, createdBy: companyId }, now);
}

/** Whether a message with this title was posted to the user or company since `since`. */
export async function messagePostedSince(
  em: EntityManager,
  to: { userId: string } | { companyId: string },
  title: string,
  since: Date,
): Promise<boolean> {
  const [table, column, id] =
    "userId" in to ? ["user_message", "user_id", to.userId] : ["company_message", "company_id", to.companyId];
  return (
    (await countRows(em, `select count(*) as n from "${table}" where ${column} = ? and title = ? and created_at >= ?`, [
      id,
      title,
      since,
    ])) > 0
  );
}
