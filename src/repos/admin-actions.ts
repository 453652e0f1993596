import type { EntityManager } from "@mikro-orm/postgresql";
import { AdminActionEntity } from "../../generated/entities.ts";
import { uuidv7 } from "../domain/ids.ts";

/** The AdminAction table: one append-only row per administrator write. */

export interface AdminActionEntry {
  /** For example suspend_user, create_partner, void_registration. */
  action: string;
  /** user, resident, company, payment, partner ... */
  targetType: string;
  targetId: string;
  /** Serialized as JSON; never secrets. */
  details: Record<string, unknown>;
}

/** Inserts one row in the unit of work `em` (it commits with the call's other writes). Returns its sid. */
export function insertAdminAction(em: EntityManager, adminEmail: string, now: Date, entry: AdminActionEntry): string {
  const row = em.create(AdminActionEntity, {
    sid: uuidv7(now),
    admin_email: adminEmail,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    details: JSON.stringify(entry.details),
    created_at: now,
    updated_at: now,
  });
  return row.sid;
}

export interface AdminActionFilter {
  action?: string | undefined;
  targetId?: string | undefined;
  /** Rows older than this sid (keyset paging, newest first). */
  beforeSid?: string | undefined;
}

/** Newest first, at most `limit` rows. */
export function listAdminActionRows(em: EntityManager, filter: AdminActionFilter, limit: number) {
  return em.find(
    AdminActionEntity,
    {
      ...(filter.action !== undefined ? { action: filter.action } : {}),
      ...(filter.targetId !== undefined ? { target_id: filter.targetId } : {}),
      ...(filter.beforeSid !== undefined ? { sid: { $lt: filter.beforeSid } } : {}),
    },
    { orderBy: { sid: "desc" }, limit },
  );
}
