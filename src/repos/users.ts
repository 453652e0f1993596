import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { UserEntity, type UserRow } from "../../generated/entities.ts";
import { countRows, sqlRows } from "../db/sql.ts";

/** The User table: accounts, password hashes, TOTP state, suspension. Emails are stored lower case. */

export function findUserById(em: EntityManager, userId: string): Promise<UserRow | null> {
  return em.findOne(UserEntity, { sid: userId });
}

export function findUserByEmail(em: EntityManager, normalizedEmail: string): Promise<UserRow | null> {
  return em.findOne(UserEntity, { email: normalizedEmail });
}

/** Only the hash, without loading the row into the unit of work (password re-entry on every guarded call). */
export async function passwordHashOf(em: EntityManager, userId: string): Promise<string | null> {
  const rows = await sqlRows<{ password_hash: string }>(em, `select password_hash from "user" where sid = ?`, [userId]);
  return rows[0]?.password_hash ?? null;
}

export function insertUser(em: EntityManager, row: RequiredEntityData<UserRow>): UserRow {
  return em.create(UserEntity, row);
}

/** Replaces the password hash (computed beforehand: argon2 is slow) and stamps password_changed_at. */
export async function storePasswordHash(em: EntityManager, userId: string, hash: string, now: Date): Promise<void> {
  await em.nativeUpdate(
    UserEntity,
    { sid: userId },
    { password_hash: hash, password_changed_at: now, updated_at: now },
  );
}

/** Active (not suspended) administrators other than `exceptUserId`. */
export function countOtherActiveAdmins(em: EntityManager, exceptUserId: string): Promise<number> {
  return countRows(
    em,
    `select count(*) as n from "user" where 'admin' = any(roles) and not is_suspended and sid <> ?`,
    [exceptUserId],
  );
}

/**
 * Serialises changes of the admin role until the call's transaction ends, so two administrators demoting each
 * other at the same moment cannot leave none (a transaction-scoped advisory lock).
 */
export async function lockAdminRoles(em: EntityManager): Promise<void> {
  await sqlRows(em, "select pg_advisory_xact_lock(?)", [ADMIN_ROLES_LOCK]);
}

const ADMIN_ROLES_LOCK = 731_002_001;
