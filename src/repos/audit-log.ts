import type { EntityManager } from "@mikro-orm/postgresql";
import { UserAuditLogEntity, type UserAuditLogRow } from "../../generated/entities.ts";
import type { AuditAction, AuditTargetType } from "../../generated/types.ts";
import { countRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/** The UserAuditLog table: append-only (the database refuses updates and deletes), newest sid last. */

export interface AuditEntry {
  subjectId: string;
  action: AuditAction;
  targetRef: string;
  targetType: AuditTargetType;
  allowed: boolean;
  context: Record<string, unknown>;
}

/**
 * Appends one row with a native insert on `em`: inside the call's transaction when it has one (a success commits
 * with the call), at once otherwise (a denial is written after the rollback, so it survives it).
 */
export async function writeAudit(em: EntityManager, entry: AuditEntry, now: Date): Promise<void> {
  await em.insert(UserAuditLogEntity, {
    sid: uuidv7(now),
    subject_id: entry.subjectId,
    action: entry.action,
    target_ref: entry.targetRef,
    target_type: entry.targetType,
    allowed: entry.allowed,
    context: JSON.stringify(entry.context),
    created_at: now,
    updated_at: now,
  });
}

/** A row written through the unit of work: it commits exactly when the call does (administrator `log`). */
export function createAuditRow(em: EntityManager, row: Omit<UserAuditLogRow, "updated_at">): UserAuditLogRow {
  return em.create(UserAuditLogEntity, { ...row, updated_at: row.created_at });
}

/** Rows about one subject or one target, newest first, at most `limit`. */
export function listAuditRows(
  em: EntityManager,
  by: { subjectId: string } | { targetRef: string },
  limit: number,
): Promise<UserAuditLogRow[]> {
  const where = "subjectId" in by ? { subject_id: by.subjectId } : { target_ref: by.targetRef };
  return em.find(UserAuditLogEntity, where, { orderBy: { sid: "desc" }, limit });
}

/** How many audit rows of `action` name `targetRef` (an approval's executions: which attempt the next one is). */
export async function countAuditRows(em: EntityManager, action: string, targetRef: string): Promise<number> {
  return countRows(em, `select count(*) as n from "user_audit_log" where action = ? and target_ref = ?`, [
    action,
    targetRef,
  ]);
}
