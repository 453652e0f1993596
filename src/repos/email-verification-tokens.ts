import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import {
  EmailVerificationTokenEntity,
  type EmailVerificationTokenRow,
  type UserRow,
} from "../../generated/entities.ts";
import { dateOf, type FromSql, sqlRows } from "../db/sql.ts";

/** The EmailVerificationToken table: one-time links, stored as SHA-256. */

export function insertVerificationToken(
  em: EntityManager,
  row: RequiredEntityData<EmailVerificationTokenRow>,
): EmailVerificationTokenRow {
  return em.create(EmailVerificationTokenEntity, row);
}

/** A token and the address it proves. */
export type VerificationTokenWithEmail = Pick<EmailVerificationTokenRow, "sid" | "user_id" | "expires_at" | "used"> &
  Pick<UserRow, "email">;

export async function findVerificationToken(
  em: EntityManager,
  tokenHash: string,
): Promise<VerificationTokenWithEmail | null> {
  const rows = await sqlRows<FromSql<VerificationTokenWithEmail>>(
    em,
    `select t.sid, t.user_id, t.expires_at, t.used, u.email
       from "email_verification_token" t join "user" u on u.sid = t.user_id
      where t.token_hash = ? limit 1`,
    [tokenHash],
  );
  const row = rows[0];
  return row ? { ...row, expires_at: dateOf(row.expires_at) } : null;
}

/** Spends the token; false when a concurrent request spent it first. */
export async function claimVerificationToken(em: EntityManager, sid: string, now: Date): Promise<boolean> {
  return (
    (await em.nativeUpdate(EmailVerificationTokenEntity, { sid, used: false }, { used: true, updated_at: now })) === 1
  );
}
