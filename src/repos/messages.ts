import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import {
  CompanyMessageEntity,
  type CompanyMessageRow,
  UserMessageEntity,
  type UserMessageRow,
} from "../../generated/entities.ts";
import type { MessageCategory } from "../../generated/types.ts";

/**
 * The UserMessage table (user inboxes). Renewal messages are posted by src/repos/subscriptions.ts
 * (postUserMessage); this module reads, marks and deletes them and inserts system messages.
 */

/** The most messages one list answers (newest first). */
export const MESSAGE_LIST_LIMIT = 1000;

export interface UserMessageFilter {
  category?: MessageCategory | undefined;
  isRead?: boolean | undefined;
}

export function listUserMessages(em: EntityManager, userId: string, f: UserMessageFilter): Promise<UserMessageRow[]> {
  return em.find(
    UserMessageEntity,
    {
      user_id: userId,
      ...(f.category !== undefined ? { category: f.category } : {}),
      ...(f.isRead !== undefined ? { is_read: f.isRead } : {}),
    },
    { orderBy: { created_at: "desc", sid: "desc" }, limit: MESSAGE_LIST_LIMIT },
  );
}

/** The user's message, or null when it does not exist or belongs to someone else. */
export function findUserMessage(em: EntityManager, userId: string, messageId: string): Promise<UserMessageRow | null> {
  return em.findOne(UserMessageEntity, { sid: messageId, user_id: userId });
}

export function countUnread(em: EntityManager, userId: string): Promise<number> {
  return em.count(UserMessageEntity, { user_id: userId, is_read: false });
}

/** Sets the read flag of one message or (without `messageId`) all the user's; the number of rows that changed. */
export function setUserRead(
  em: EntityManager,
  userId: string,
  messageId: string | null,
  isRead: boolean,
  now: Date,
): Promise<number> {
  return em.nativeUpdate(
    UserMessageEntity,
    { user_id: userId, is_read: !isRead, ...(messageId !== null ? { sid: messageId } : {}) },
    { is_read: isRead, updated_at: now },
  );
}

/** Deletes the user's message; false when there was none (another user's or already deleted). */
export async function deleteUserMessage(em: EntityManager, userId: string, messageId: string): Promise<boolean> {
  return (await em.nativeDelete(UserMessageEntity, { sid: messageId, user_id: userId })) === 1;
}

export function insertUserMessage(em: EntityManager, row: RequiredEntityData<UserMessageRow>): UserMessageRow {
  return em.create(UserMessageEntity, row);
}

/* The CompanyMessage table (company inboxes): one read flag per message, shared by the company's members. */

export function listCompanyMessages(em: EntityManager, companyId: string): Promise<CompanyMessageRow[]> {
  return em.find(
    CompanyMessageEntity,
    { company_id: companyId },
    { orderBy: { created_at: "desc", sid: "desc" }, limit: MESSAGE_LIST_LIMIT },
  );
}

/** The company's message, or null when it does not exist or belongs to another company. */
export function findCompanyMessage(
  em: EntityManager,
  companyId: string,
  messageId: string,
): Promise<CompanyMessageRow | null> {
  return em.findOne(CompanyMessageEntity, { sid: messageId, company_id: companyId });
}

/** Sets the read flag of one company message or (without `messageId`) all; the number of rows that changed. */
export function setCompanyRead(
  em: EntityManager,
  companyId: string,
  messageId: string | null,
  isRead: boolean,
  now: Date,
): Promise<number> {
  return em.nativeUpdate(
    CompanyMessageEntity,
    { company_id: companyId, is_read: !isRead, ...(messageId !== null ? { sid: messageId } : {}) },
    { is_read: isRead, updated_at: now },
  );
}

export function insertCompanyMessage(em: EntityManager, row: RequiredEntityData<CompanyMessageRow>): CompanyMessageRow {
  return em.create(CompanyMessageEntity, row);
}
