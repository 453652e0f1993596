import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { MfaChallengeEntity, type MfaChallengeRow, type UserRow } from "../../generated/entities.ts";
import { affected, dateOf, type FromSql, sqlRows } from "../db/sql.ts";

/** The MfaChallenge table: the password-proven step of a login with TOTP on, stored as SHA-256. */

export function insertChallenge(em: EntityManager, row: RequiredEntityData<MfaChallengeRow>): MfaChallengeRow {
  return em.create(MfaChallengeEntity, row);
}

/** A challenge and whether its user may still sign in. */
export type ChallengeWithUser = Pick<MfaChallengeRow, "sid" | "user_id" | "expires_at" | "used" | "attempts"> &
  Pick<UserRow, "is_suspended">;

export async function findChallengeByHash(em: EntityManager, hash: string): Promise<ChallengeWithUser | null> {
  const rows = await sqlRows<FromSql<ChallengeWithUser>>(
    em,
    `select c.sid, c.user_id, c.expires_at, c.used, c.attempts, u.is_suspended
       from "mfa_challenge" c join "user" u on u.sid = c.user_id
      where c.challenge_hash = ? limit 1`,
    [hash],
  );
  const row = rows[0];
  return row ? { ...row, attempts: Number(row.attempts), expires_at: dateOf(row.expires_at) } : null;
}

/** Spends the challenge; false when a concurrent request spent it first. */
export async function claimChallenge(em: EntityManager, sid: string, now: Date): Promise<boolean> {
  return (await em.nativeUpdate(MfaChallengeEntity, { sid, used: false }, { used: true, updated_at: now })) === 1;
}

/** Counts a wrong code; the challenge is spent once it has taken `max` of them. */
export async function countWrongCode(em: EntityManager, sid: string, max: number, now: Date): Promise<void> {
  await affected(
    em,
    `update "mfa_challenge" set attempts = attempts + 1, used = (attempts + 1 >= ?), updated_at = ? where sid = ?`,
    [max, now, sid],
  );
}
