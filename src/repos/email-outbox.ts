import type { EntityManager } from "@mikro-orm/postgresql";
import { EmailOutboxEntity } from "../../generated/entities.ts";

/** The EmailOutbox table, as administrators read it (the sandbox email provider writes it). */

export interface OutboxFilter {
  /** Only emails to this address, compared without case. */
  toEmail?: string | undefined;
  /** Emails older than this sid (keyset paging, newest first). */
  beforeSid?: string | undefined;
}

/** A LIKE pattern that matches `text` literally (`%`, `_` and `\` are legal in email addresses). */
const literal = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Newest first, at most `limit` rows. */
export function listOutboxRows(em: EntityManager, filter: OutboxFilter, limit: number) {
  return em.find(
    EmailOutboxEntity,
    {
      ...(filter.toEmail !== undefined ? { to_email: { $ilike: literal(filter.toEmail) } } : {}),
      ...(filter.beforeSid !== undefined ? { sid: { $lt: filter.beforeSid } } : {}),
    },
    { orderBy: { sid: "desc" }, limit },
  );
}
