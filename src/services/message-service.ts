import type { CompanyMessageRow, UserMessageRow } from "../../generated/entities.ts";
import type { MessageServiceHandlers } from "../../generated/handlers/index.ts";
import type { MessageResult } from "../../generated/types.ts";
import { uuidv7 } from "../domain/ids.ts";
import { actionUrl, messageText } from "../domain/messages.ts";
import { isRefusal, type Refusal } from "../domain/refusal.ts";
import { writeCompanyMessageAudience } from "../repos/document-audiences.ts";
import * as messages from "../repos/messages.ts";
import { findUserById } from "../repos/users.ts";
import { recordAdminAction } from "../rpc/admin-actions.ts";
import { requireCaller } from "../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

/*
 * MessageService (issue 16). User inbox: the dispatcher fills and checks the caller-bound user_id (another user's
 * id is -32002); a message id of another user is NotFound (the query is scoped to the caller). Marks are conditional
 * updates, so updated_count counts only the rows whose flag changed. create_system_message is admin-only (the
 * dispatcher's x-auth) and records an AdminAction. Renewal messages are posted by src/repos/subscriptions.ts.
 * Company inbox: the dispatcher checks the role for company_id (non-members NotFound, create needs a director of a
 * company that operates: x-target operable); the read flag is one per message, shared by the members
 * (docs/decisions.md); a new company message gets its DocumentAudience row.
 */

const messageError = errorsFor("MessageService", "MessageError");

function refused(r: Refusal<"InvalidInput">): Error {
  return messageError(r.refusal, r.message, r.details);
}

/** The result of a user message (`companyId` null) or of a company message. */
function toMessageResult(row: Omit<UserMessageRow, "user_id">, companyId: string | null): MessageResult {
  return {
    sid: row.sid,
    company_id: companyId,
    title: row.title,
    body: row.body,
    message_type: row.message_type,
    category: row.category,
    action_url: row.action_url,
    action_label: row.action_label,
    is_read: row.is_read,
    created_at: row.created_at.toISOString(),
  };
}

async function loadUserMessage(ctx: RpcContext, userId: string, messageId: string): Promise<UserMessageRow> {
  const row = await messages.findUserMessage(ctx.em, userId, messageId);
  if (!row) throw messageError.notFound("message");
  return row;
}

async function markOne(ctx: RpcContext, userId: string, messageId: string, isRead: boolean) {
  await loadUserMessage(ctx, userId, messageId);
  const n = await messages.setUserRead(ctx.em, userId, messageId, isRead, ctx.now());
  return { message_id: messageId, is_read: isRead, updated_count: n };
}

async function markAll(ctx: RpcContext, userId: string, isRead: boolean) {
  const n = await messages.setUserRead(ctx.em, userId, null, isRead, ctx.now());
  return { message_id: null, is_read: isRead, updated_count: n };
}

function toUserMessageResult(row: UserMessageRow): MessageResult {
  return toMessageResult(row, null);
}

function toCompanyMessageResult(row: CompanyMessageRow): MessageResult {
  return toMessageResult(row, row.company_id);
}

/** Marks one message of the company (NotFound when it is another company's); the shared flag changes for all. */
async function markCompanyOne(ctx: RpcContext, companyId: string, messageId: string, isRead: boolean) {
  if (!(await messages.findCompanyMessage(ctx.em, companyId, messageId))) throw messageError.notFound("message");
  const n = await messages.setCompanyRead(ctx.em, companyId, messageId, isRead, ctx.now());
  return { message_id: messageId, is_read: isRead, updated_count: n };
}

/** MessageService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const messageService: MessageServiceHandlers<RpcContext> = {
  async listUserMessages(ctx, p) {
    const rows = await messages.listUserMessages(ctx.em, p.user_id, { category: p.category, isRead: p.is_read });
    return { items: rows.map(toUserMessageResult) };
  },
  async getUserMessage(ctx, p) {
    return toUserMessageResult(await loadUserMessage(ctx, p.user_id, p.message_id));
  },
  async getUnreadCount(ctx, p) {
    return { unread_count: await messages.countUnread(ctx.em, p.user_id) };
  },
  async markAsRead(ctx, p) {
    return markOne(ctx, p.user_id, p.message_id, true);
  },
  async markAsUnread(ctx, p) {
    return markOne(ctx, p.user_id, p.message_id, false);
  },
  async markAllRead(ctx, p) {
    return markAll(ctx, p.user_id, true);
  },
  async markAllUnread(ctx, p) {
    return markAll(ctx, p.user_id, false);
  },
  async deleteMessage(ctx, p) {
    if (!(await messages.deleteUserMessage(ctx.em, p.user_id, p.message_id))) throw messageError.notFound("message");
    return { sid: p.message_id, deleted: true };
  },
  async createSystemMessage(ctx, p) {
    const text = messageText(p.title, p.body);
    if (isRefusal(text)) throw refused(text);
    const url = actionUrl(p.action_url);
    if (isRefusal(url)) throw refused(url);
    if (!(await findUserById(ctx.em, p.user_id))) throw messageError.notFound("user");
    const now = ctx.now();
    const row = messages.insertUserMessage(ctx.em, {
      sid: uuidv7(now),
      user_id: p.user_id,
      title: text.title,
      body: text.body,
      message_type: "system",
      category: p.category ?? null,
      action_url: url,
      action_label: null,
      is_read: false,
      created_at: now,
      updated_at: now,
    });
    recordAdminAction(ctx, {
      action: "create_system_message",
      targetType: "user",
      targetId: p.user_id,
      details: { message_id: row.sid, title: text.title, category: row.category },
    });
    return toUserMessageResult(row);
  },
  async listCompanyMessages(ctx, p) {
    const rows = await messages.listCompanyMessages(ctx.em, p.company_id);
    return { items: rows.map(toCompanyMessageResult) };
  },
  async createCompanyMessage(ctx, p) {
    const text = messageText(p.title, p.body);
    if (isRefusal(text)) throw refused(text);
    const now = ctx.now();
    const caller = requireCaller(ctx);
    const row = messages.insertCompanyMessage(ctx.em, {
      sid: uuidv7(now),
      company_id: p.company_id,
      title: text.title,
      body: text.body,
      message_type: "notification",
      category: p.category ?? null,
      action_url: null,
      action_label: null,
      is_read: false,
      created_at: now,
      updated_at: now,
    });
    writeCompanyMessageAudience(ctx.em, { sid: row.sid, companyId: p.company_id, createdBy: caller.userId }, now);
    if (isAdminSession(caller)) {
      recordAdminAction(ctx, {
        action: "create_company_message",
        targetType: "company",
        targetId: p.company_id,
        details: { message_id: row.sid, title: text.title },
      });
    }
    return toCompanyMessageResult(row);
  },
  async markCompanyRead(ctx, p) {
    return markCompanyOne(ctx, p.company_id, p.message_id, true);
  },
  async markCompanyUnread(ctx, p) {
    return markCompanyOne(ctx, p.company_id, p.message_id, false);
  },
  async markAllCompanyRead(ctx, p) {
    const n = await messages.setCompanyRead(ctx.em, p.company_id, null, true, ctx.now());
    return { message_id: null, is_read: true, updated_count: n };
  },
  async markAllCompanyUnread(ctx, p) {
    const n = await messages.setCompanyRead(ctx.em, p.company_id, null, false, ctx.now());
    return { message_id: null, is_read: false, updated_count: n };
  },
};
