import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { UserEntity, type UserRow } from "../../generated/entities.ts";
import { affected, countRows, sqlRows } from "../db/sql.ts";
import { normalizeEmail } from "../domain/email.ts";

/** The User table: accounts, password hashes, TOTP state, suspension. Emails are stored lower case. */

export function findUserById(em: EntityManager, userId: string): Promise<UserRow | null> {
  return em.findOne(UserEntity, { sid: userId });
}

/** The account of an email as typed: normalized here (stored lower case), so no caller can forget to. */
export function findUserByEmail(em: EntityManager, email: string): Promise<UserRow | null> {
  return em.findOne(UserEntity, { email: normalizeEmail(email) });
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

/**
 * The enabled second factor's TOTP state, read fresh from the database (not the unit of work's copy: the replay
 * guard moves by conditional SQL).
 */
export function totpStateOf(
  em: EntityManager,
  userId: string,
): Promise<Pick<UserRow, "totp_secret" | "totp_last_step"> | null> {
  return em.findOne(
    UserEntity,
    { sid: userId, totp_enabled: true },
    { fields: ["totp_secret", "totp_last_step"], disableIdentityMap: true },
  );
}

/** Records an accepted TOTP step; 0 when that step (or a later one) was accepted already: the code is a replay. */
export function recordTotpStep(em: EntityManager, userId: string, step: number, now: Date): Promise<number> {
  return affected(
    em,
    `update "user" set totp_last_step = ?, updated_at = ?
      where sid = ? and totp_enabled and (totp_last_step is null or totp_last_step < ?)`,
    [step, now, userId, step],
  );
}

/** Removes a backup code in the statement that finds it; 0 when the code is not (or no longer) there. */
export function spendBackupCode(em: EntityManager, userId: string, hash: string, now: Date): Promise<number> {
  return affected(
    em,
    `update "user" set backup_code_hashes = array_remove(backup_code_hashes, ?), updated_at = ?
      where sid = ? and totp_enabled and ? = any(backup_code_hashes)`,
    [hash, now, userId, hash],
  );
}

export async function backupCodesRemaining(em: EntityManager, userId: string): Promise<number> {
  const user = await em.findOne(
    UserEntity,
    { sid: userId },
    { fields: ["backup_code_hashes"], disableIdentityMap: true },
  );
  return user?.backup_code_hashes.length ?? 0;
}

/** Stores a pending TOTP secret (sealed) while TOTP is off; an earlier pending one is replaced. */
export async function storePendingTotpSecret(em: EntityManager, userId: string, sealed: string, now: Date) {
  await em.nativeUpdate(
    UserEntity,
    { sid: userId, totp_enabled: false },
    { totp_secret: sealed, totp_last_step: null, updated_at: now },
  );
}

/**
 * Turns TOTP on with its first accepted step and the backup codes' hashes, only while `pending` is still the
 * stored secret and TOTP is off; 0 when the enrolment changed meanwhile.
 */
export function enableTotp(
  em: EntityManager,
  userId: string,
  pending: string,
  step: number,
  backupHashes: string[],
  now: Date,
): Promise<number> {
  return em.nativeUpdate(
    UserEntity,
    { sid: userId, totp_enabled: false, totp_secret: pending },
    { totp_enabled: true, totp_last_step: step, backup_code_hashes: backupHashes, updated_at: now },
  );
}

/** TOTP off: the secret, the replay guard and the backup codes are deleted. */
export async function disableTotp(em: EntityManager, userId: string, now: Date): Promise<void> {
  await em.nativeUpdate(
    UserEntity,
    { sid: userId },
    { totp_enabled: false, totp_secret: null, totp_last_step: null, backup_code_hashes: [], updated_at: now },
  );
}

export async function markEmailVerified(em: EntityManager, userId: string, now: Date): Promise<void> {
  await em.nativeUpdate(UserEntity, { sid: userId }, { email_verified: true, updated_at: now });
}

export function countAdmins(em: EntityManager): Promise<number> {
  return countRows(em, `select count(*) as n from "user" where 'admin' = any(roles)`);
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

/** Suspends or lifts a suspension if the user is still in the state the handler decided on; false otherwise. */
export async function setSuspensionIf(
  em: EntityManager,
  userId: string,
  wasSuspended: boolean,
  changes: Pick<UserRow, "is_suspended" | "suspended_at" | "suspension_reason">,
  now: Date,
): Promise<boolean> {
  return (
    (await em.nativeUpdate(UserEntity, { sid: userId, is_suspended: wasSuspended }, { ...changes, updated_at: now })) >
    0
  );
}

/** Replaces the user's roles (under lockAdminRoles: the last-administrator rule reads and writes under one lock). */
export async function storeRoles(em: EntityManager, userId: string, roles: UserRow["roles"], now: Date): Promise<void> {
  await em.nativeUpdate(UserEntity, { sid: userId }, { roles, updated_at: now });
}
