import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "./ids.ts";

export interface AdminActionEntry {
  /** For example suspend_user, create_partner, void_registration. */
  action: string;
  /** user, resident, company, payment, partner ... */
  targetType: string;
  targetId: string;
  /** Serialized as JSON; never secrets. */
  details: Record<string, unknown>;
}

/**
 * Records one administrator action (an append-only AdminAction row) in the request's unit of work, so it is
 * written exactly when the action's own changes are. Returns the row's sid.
 */
export function recordAdminAction(em: EntityManager, adminEmail: string, entry: AdminActionEntry, now: Date): string {
  const sid = uuidv7(now);
  em.create("AdminAction", {
    sid,
    admin_email: adminEmail,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    details: JSON.stringify(entry.details),
    created_at: now,
    updated_at: now,
  });
  return sid;
}
