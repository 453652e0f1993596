import type { EntityManager } from "@mikro-orm/postgresql";
import { UserAuditLogEntity } from "../../generated/entities.ts";
import type { AuditAction, AuditTargetType } from "../../generated/types.ts";
import { uuidv7 } from "./ids.ts";

export interface AuditEntry {
  subjectId: string;
  action: AuditAction;
  targetRef: string;
  targetType: AuditTargetType;
  allowed: boolean;
  context: Record<string, unknown>;
}

/**
 * Appends one UserAuditLog row (never updated or deleted) with a native insert on `em`: inside the call's
 * transaction when it has one (a success commits with the call), at once otherwise (a denial is written after the
 * rollback, so it survives it).
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
