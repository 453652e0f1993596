import type { UserAuditLogRow } from "../../generated/entities.ts";
import type { UserAuditLogServiceHandlers } from "../../generated/handlers/index.ts";
import type { AuditTargetType, UserAuditLogResult } from "../../generated/types.ts";
import { ownsTarget } from "../auth/target-owner.ts";
import { uuidv7 } from "../domain/ids.ts";
import { createAuditRow, listAuditRows, writeAudit } from "../repos/audit-log.ts";
import { recordAdminAction } from "../rpc/admin-actions.ts";
import { requireCaller } from "../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

const auditLogError = errorsFor("UserAuditLogService", "UserAuditLogError");

const CONTEXT_MAX_BYTES = 16 * 1024;
const DEFAULT_LIMIT = 100;

const toResult = (row: UserAuditLogRow): UserAuditLogResult => ({
  sid: row.sid,
  subject_id: row.subject_id,
  action: row.action,
  target_ref: row.target_ref,
  target_type: row.target_type,
  allowed: row.allowed,
  context: row.context,
  created_at: row.created_at.toISOString(),
});

/** The seed: 0 or below means the default (100); the schema caps it at 1000. */
const effectiveLimit = (limit: number) => (limit <= 0 ? DEFAULT_LIMIT : limit);

/** An administrator reading someone else's trail is itself audited (view_logs). */
async function auditAdminView(ctx: RpcContext, targetRef: string, targetType: AuditTargetType, method: string) {
  const admin = requireCaller(ctx);
  if (targetType === "user" && targetRef === admin.userId) return;
  await writeAudit(
    ctx.em,
    {
      subjectId: admin.userId,
      action: "view_logs",
      targetRef,
      targetType,
      allowed: true,
      context: { method, via: admin.via },
    },
    ctx.now(),
  );
}

/** UserAuditLogService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const userAuditLogService: UserAuditLogServiceHandlers<RpcContext> = {
  /** Administrators only: rows are normally written by the server itself; this records out-of-band decisions. */
  async log(ctx, { subject_id, action, target_ref, target_type, allowed, context }) {
    if (Buffer.byteLength(context) > CONTEXT_MAX_BYTES) {
      throw auditLogError("InvalidInput", "context is over 16 KiB");
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(context);
    } catch {
      parsed = null;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw auditLogError("InvalidInput", "context must be the text of a JSON object");
    }
    const now = ctx.now();
    const row = createAuditRow(ctx.em, {
      sid: uuidv7(now),
      subject_id,
      action,
      target_ref,
      target_type,
      allowed,
      context,
      created_at: now,
    });
    recordAdminAction(ctx, {
      action: "write_audit_row",
      targetType: "user_audit_log",
      targetId: row.sid,
      details: { subject_id, action },
    });
    return toResult(row);
  },

  /** subject_id is caller-bound; an administrator's session may name anyone (the dispatcher checks both). */
  async listForSubject(ctx, { subject_id, limit }) {
    if (isAdminSession(ctx.caller))
      await auditAdminView(ctx, subject_id, "user", "userauditlogservice.list_for_subject");
    return { items: (await listAuditRows(ctx.em, { subjectId: subject_id }, effectiveLimit(limit))).map(toResult) };
  },

  /** Administrators, or the owner of the target; anyone else gets NotFound whether or not rows exist. */
  async listForTarget(ctx, { target_ref, limit }) {
    const found = await listAuditRows(ctx.em, { targetRef: target_ref }, effectiveLimit(limit));
    if (isAdminSession(ctx.caller)) {
      await auditAdminView(ctx, target_ref, found[0]?.target_type ?? "other", "userauditlogservice.list_for_target");
      return { items: found.map(toResult) };
    }
    const types = [...new Set(found.map((r) => r.target_type))];
    if (!(await ownsTarget(ctx.em, requireCaller(ctx), target_ref, types))) {
      throw auditLogError.notFound("audit target");
    }
    return { items: found.map(toResult) };
  },
};
