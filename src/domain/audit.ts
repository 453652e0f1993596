import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "./ids.ts";

export interface AuditEntry {
  subjectId: string;
  action: string;
  targetRef: string;
  targetType: string;
  allowed: boolean;
  context: Record<string, unknown>;
}

/** Appends one UserAuditLog row (never updated or deleted). Flushes on its own unit of work. */
export async function writeAudit(em: EntityManager, entry: AuditEntry, now: Date): Promise<void> {
  const fork = em.fork();
  fork.create("UserAuditLog", {
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
  await fork.flush();
}
