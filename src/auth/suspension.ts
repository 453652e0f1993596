import type {
  AdminActionListResult,
  AdminServiceListAdminActionsParams,
  AdminUserStatusResult,
} from "../../generated/types.ts";
import { recordAdminAction } from "../domain/admin-action.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { revokeUserSessions } from "./sessions.ts";
import { findUserById } from "./users.ts";

/**
 * Suspends (`reason` given) or lifts a suspension (`reason` null). A suspension ends the user's sessions at once
 * and makes the user's API keys answer Suspended until lifted (keys are not revoked, so they work again after).
 */
export async function setSuspension(
  ctx: RpcContext,
  userId: string,
  reason: string | null,
): Promise<AdminUserStatusResult> {
  const admin = ctx.caller;
  if (!admin) throw RpcError.unauthenticated();
  const user = await findUserById(ctx.em, userId);
  if (!user) throw RpcError.notFound("AdminError", "user");
  const suspend = reason !== null;
  if (suspend && user.sid === admin.userId) {
    throw RpcError.app("AdminError", "InvalidInput", "administrators cannot suspend themselves");
  }
  if (suspend && reason.trim().length === 0) throw RpcError.app("AdminError", "InvalidInput", "a reason is required");
  if (user.is_suspended === suspend) {
    throw RpcError.app(
      "AdminError",
      "InvalidState",
      suspend ? "the user is already suspended" : "the user is not suspended",
    );
  }
  const now = ctx.now();
  Object.assign(user, {
    is_suspended: suspend,
    suspended_at: suspend ? now : null,
    suspension_reason: suspend ? reason.trim() : null,
    updated_at: now,
  });
  const details: Record<string, unknown> = suspend ? { reason: reason.trim() } : {};
  if (suspend) {
    await ctx.em.flush();
    details["sessions_revoked"] = await revokeUserSessions(ctx.em, user.sid, now);
  }
  const actionId = recordAdminAction(
    ctx.em,
    admin.email,
    { action: suspend ? "suspend_user" : "unsuspend_user", targetType: "user", targetId: user.sid, details },
    now,
  );
  return {
    user_id: user.sid,
    email: user.email,
    is_suspended: suspend,
    suspended_at: suspend ? now.toISOString() : null,
    suspension_reason: suspend ? reason.trim() : null,
    admin_action_id: actionId,
  };
}

interface ActionRow {
  sid: string;
  admin_email: string;
  action: string;
  target_type: string;
  target_id: string;
  details: string;
  created_at: Date;
}

const encodeCursor = (sid: string) => Buffer.from(sid).toString("base64url");

function decodeCursor(cursor: string): string {
  const sid = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^[0-9a-f-]{36}$/.test(sid)) throw RpcError.app("AdminError", "InvalidInput", "unknown cursor");
  return sid;
}

/** Newest first, optionally by action and target, 100 a page by default, paged by an opaque cursor. */
export async function listAdminActions(
  ctx: RpcContext,
  params: AdminServiceListAdminActionsParams,
): Promise<AdminActionListResult> {
  const limit = params.limit ?? 100;
  const filters: [string, unknown][] = [];
  if (params.action !== undefined) filters.push(["action = ?", params.action]);
  if (params.target_id !== undefined) filters.push(["target_id = ?", params.target_id]);
  if (params.cursor !== undefined) filters.push(["sid < ?", decodeCursor(params.cursor)]);
  const where = filters.map(([clause]) => clause);
  const args = filters.map(([, value]) => value);
  const rows = await ctx.em.execute<ActionRow[]>(
    `select sid, admin_email, action, target_type, target_id, details, created_at from "admin_action"
      ${where.length > 0 ? `where ${where.join(" and ")}` : ""} order by sid desc limit ?`,
    [...args, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    next_cursor: rows.length > limit && last ? encodeCursor(last.sid) : null,
  };
}
