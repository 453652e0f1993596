import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { SessionEntity, type SessionRow, type UserRow } from "../../generated/entities.ts";
import { preparedRows } from "../db/fast-sql.ts";
import { dateOf, type FromSql, sqlRows } from "../db/sql.ts";

/** The Session table: one row per issued token pair, hashed; rotation links a family of rows. */

export function insertSession(em: EntityManager, row: RequiredEntityData<SessionRow>): SessionRow {
  return em.create(SessionEntity, row);
}

/** What authenticating a bearer token needs: the session and its user (one query on every call). */
export type SessionCaller = Pick<SessionRow, "sid" | "user_id" | "expires_at" | "revoked_at"> &
  Pick<UserRow, "email" | "roles" | "is_suspended">;

/** A prepared statement on the pool (src/db/fast-sql.ts): it runs before every call a session token makes. */
const SESSION_BY_TOKEN_HASH = `select s.sid, s.user_id, s.expires_at, s.revoked_at, u.email, u.roles, u.is_suspended
  from "session" s join "user" u on u.sid = s.user_id
  where s.token_hash = $1 limit 1`;

export async function findSessionByTokenHash(em: EntityManager, tokenHash: string): Promise<SessionCaller | null> {
  const rows = await preparedRows<FromSql<SessionCaller>>(em, SESSION_BY_TOKEN_HASH, [tokenHash]);
  const row = rows[0];
  return row ? { ...row, expires_at: dateOf(row.expires_at), revoked_at: dateOf(row.revoked_at) } : null;
}

/** What a refresh needs: the session's place in its family and whether its user may still sign in. */
export type RefreshSession = Pick<
  SessionRow,
  "sid" | "user_id" | "family_id" | "revoked_at" | "replaced_by" | "refresh_expires_at"
> &
  Pick<UserRow, "is_suspended">;

export async function findSessionByRefreshHash(em: EntityManager, refreshHash: string): Promise<RefreshSession | null> {
  const rows = await sqlRows<FromSql<RefreshSession>>(
    em,
    `select s.sid, s.user_id, s.family_id, s.revoked_at, s.replaced_by, s.refresh_expires_at, u.is_suspended
       from "session" s join "user" u on u.sid = s.user_id
      where s.refresh_token_hash = ? limit 1`,
    [refreshHash],
  );
  const row = rows[0];
  return row
    ? { ...row, refresh_expires_at: dateOf(row.refresh_expires_at), revoked_at: dateOf(row.revoked_at) }
    : null;
}

/**
 * Ends a live session and names its successor; 0 when it was no longer live (a concurrent refresh with the same
 * token won, so this one is a reuse).
 */
export function replaceSession(em: EntityManager, sid: string, next: string, now: Date): Promise<number> {
  return em.nativeUpdate(
    SessionEntity,
    { sid, revoked_at: null },
    { revoked_at: now, replaced_by: next, updated_at: now },
  );
}

/** Ends every live session of a rotation family; the number ended. */
export function revokeFamily(em: EntityManager, familyId: string, now: Date): Promise<number> {
  return em.nativeUpdate(
    SessionEntity,
    { family_id: familyId, revoked_at: null },
    { revoked_at: now, updated_at: now },
  );
}

export function revokeSession(em: EntityManager, sid: string, now: Date): Promise<number> {
  return em.nativeUpdate(SessionEntity, { sid, revoked_at: null }, { revoked_at: now, updated_at: now });
}

/** Ends every live session of a user, or every one but `keep` (the caller's own). */
export function revokeUserSessions(em: EntityManager, userId: string, now: Date, keep: string | null): Promise<number> {
  return em.nativeUpdate(
    SessionEntity,
    { user_id: userId, revoked_at: null, ...(keep !== null ? { sid: { $ne: keep } } : {}) },
    { revoked_at: now, updated_at: now },
  );
}
