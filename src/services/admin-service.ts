import type { AdminActionRow, UserRow } from "../../generated/entities.ts";
import type { AdminServiceHandlers } from "../../generated/handlers/index.ts";
import type { AdminActionResult, AdminUserStatusResult } from "../../generated/types.ts";
import { KeyCache } from "../auth/key-cache.ts";
import { revokeUserSessions } from "../auth/sessions.ts";
import { adminRoleChange } from "../domain/admin-roles.ts";
import { isRefusal, type Refusal, refuse } from "../domain/refusal.ts";
import { listAdminActionRows } from "../repos/admin-actions.ts";
import { cursorPage, decodeCursor } from "../repos/paging.ts";
import { countOtherActiveAdmins, findUserById, lockAdminRoles, setSuspensionIf, storeRoles } from "../repos/users.ts";
import { recordAdminAction } from "../rpc/admin-actions.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";
import { grantLicense, revokeLicense } from "./admin-service/company-license.ts";
import { setCompanySuspension } from "./admin-service/company-suspension.ts";
import { voidCompany } from "./admin-service/company-void.ts";
import { listOutbox } from "./shared/admin-outbox.ts";

const adminError = errorsFor("AdminService", "AdminError");

/** Whether `user` may move to `suspended` (reason given) or back (reason null), by this administrator. */
function suspensionRefusal(
  user: Pick<UserRow, "sid" | "is_suspended">,
  adminId: string,
  reason: string | null,
): Refusal<"InvalidInput" | "InvalidState"> | null {
  const suspend = reason !== null;
  if (suspend && user.sid === adminId) return refuse("InvalidInput", "administrators cannot suspend themselves");
  if (suspend && reason.trim().length === 0) return refuse("InvalidInput", "a reason is required");
  if (user.is_suspended === suspend) {
    return refuse("InvalidState", suspend ? "the user is already suspended" : "the user is not suspended");
  }
  return null;
}

/**
 * Suspends (`reason` given) or lifts a suspension (`reason` null). A suspension ends the user's sessions at once
 * and makes the user's API keys answer Suspended until lifted (keys are not revoked, so they work again after).
 */
async function setSuspension(ctx: RpcContext, userId: string, reason: string | null): Promise<AdminUserStatusResult> {
  const user = await findUserById(ctx.em, userId);
  if (!user) throw adminError.notFound("user");
  const refusal = suspensionRefusal(user, requireCaller(ctx).userId, reason);
  if (refusal) throw adminError(refusal.refusal, refusal.message);
  const now = ctx.now();
  const suspend = reason !== null;
  const cleanReason = reason?.trim() ?? null;
  const changes = { is_suspended: suspend, suspended_at: suspend ? now : null, suspension_reason: cleanReason };
  if (!(await setSuspensionIf(ctx.em, user.sid, user.is_suspended, changes, now))) {
    throw adminError("InvalidState", "the user changed meanwhile; read it again");
  }
  KeyCache.of(ctx.em)?.drop(`user:${user.sid}`);
  const details: Record<string, unknown> = suspend ? { reason: cleanReason } : {};
  if (suspend) details["sessions_revoked"] = await revokeUserSessions(ctx.em, user.sid, now);
  const actionId = recordAdminAction(ctx, {
    action: suspend ? "suspend_user" : "unsuspend_user",
    targetType: "user",
    targetId: user.sid,
    details,
  });
  return {
    user_id: user.sid,
    email: user.email,
    is_suspended: suspend,
    suspended_at: suspend ? now.toISOString() : null,
    suspension_reason: cleanReason,
    admin_action_id: actionId,
  };
}

const toActionResult = (row: AdminActionRow): AdminActionResult => ({
  sid: row.sid,
  admin_email: row.admin_email,
  action: row.action,
  target_type: row.target_type,
  target_id: row.target_id,
  details: row.details,
  created_at: row.created_at.toISOString(),
});

const DEFAULT_LIMIT = 100;

/** AdminService: suspensions, administrators, the action log, company voids, suspensions and licences. */
export const adminService: AdminServiceHandlers<RpcContext> = {
  async suspendUser(ctx, { user_id, reason }) {
    return setSuspension(ctx, user_id, reason);
  },
  async unsuspendUser(ctx, { user_id }) {
    return setSuspension(ctx, user_id, null);
  },
  /** Newest first, optionally by action and target, 100 a page by default, paged by an opaque cursor. */
  async listAdminActions(ctx, { action, target_id, limit = DEFAULT_LIMIT, cursor }) {
    const after = decodeCursor(cursor, 1, () => adminError("InvalidInput", "unknown cursor"));
    const rows = await listAdminActionRows(ctx.em, { action, targetId: target_id, beforeSid: after?.[0] }, limit + 1);
    return cursorPage(rows, limit, (row) => [row.sid], toActionResult);
  },
  async voidCompany(ctx, { company_id, reason }) {
    return voidCompany(ctx, company_id, reason);
  },
  async grantLicense(ctx, { company_id, license }) {
    return grantLicense(ctx, company_id, license);
  },
  async revokeLicense(ctx, { company_id, reason }) {
    return revokeLicense(ctx, company_id, reason);
  },
  /** Grant or withdraw the admin role; the last active administrator is never demoted. */
  async setAdministrator(ctx, { user_id, administrator }) {
    await lockAdminRoles(ctx.em);
    const user = await findUserById(ctx.em, user_id);
    if (!user) throw adminError.notFound("user");
    const roles = adminRoleChange(user.roles, administrator, await countOtherActiveAdmins(ctx.em, user.sid));
    if (isRefusal(roles)) throw adminError(roles.refusal, roles.message);
    await storeRoles(ctx.em, user.sid, roles, ctx.now());
    const adminActionId = recordAdminAction(ctx, {
      action: administrator ? "grant_admin" : "revoke_admin",
      targetType: "user",
      targetId: user.sid,
      details: { roles },
    });
    return { user_id: user.sid, email: user.email, roles, admin_action_id: adminActionId };
  },
  listOutbox,
  async suspendCompany(ctx, { company_id, reason }) {
    return setCompanySuspension(ctx, company_id, reason);
  },
  async unsuspendCompany(ctx, { company_id }) {
    return setCompanySuspension(ctx, company_id, null);
  },
};
