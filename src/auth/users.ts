import type { EntityManager } from "@mikro-orm/postgresql";
import type { Config } from "../config.ts";
import { uuidv7 } from "../domain/ids.ts";
import { RpcError } from "../rpc/errors.ts";
import { checkPasswordRules, hashPassword } from "./passwords.ts";

export type UserRow = Record<string, unknown> & {
  sid: string;
  email: string;
  password_hash: string;
  roles: string[];
  is_suspended: boolean;
  totp_enabled: boolean;
};

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A plausible address (the mailbox itself is proven by verify_email), at most 254 characters. */
export function isValidEmail(normalized: string): boolean {
  return EMAIL.test(normalized) && normalized.length <= 254;
}

export interface NewUser {
  email: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
  roles?: string[];
}

/** Creates a user with an argon2id password; the email is unique (case-insensitive). */
export async function createUser(em: EntityManager, config: Config, now: Date, input: NewUser): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw RpcError.app("RegistrationError", "InvalidInput", "email is not a valid address");
  checkPasswordRules(input.password, email, "RegistrationError");
  if (await em.findOne("User", { email }))
    throw RpcError.app("RegistrationError", "AlreadyExists", "an account with this email already exists");
  const row = {
    sid: uuidv7(now),
    email,
    password_hash: await hashPassword(input.password, config.argon2),
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    email_verified: false,
    roles: input.roles ?? ["user"],
    is_suspended: false,
    suspended_at: null,
    totp_secret: null,
    totp_enabled: false,
    totp_last_step: null,
    backup_code_hashes: [],
    partner_id: null,
    password_changed_at: null,
    suspension_reason: null,
    created_at: now,
    updated_at: now,
  };
  em.create("User", row);
  await em.flush();
  return row as UserRow;
}

export async function findUserByEmail(em: EntityManager, email: string): Promise<UserRow | null> {
  return em.findOne<UserRow>("User", { email: normalizeEmail(email) });
}

export async function findUserById(em: EntityManager, userId: string): Promise<UserRow | null> {
  return em.findOne<UserRow>("User", { sid: userId });
}

/** Replaces the password hash (computed beforehand: argon2 is slow) and stamps password_changed_at. */
export async function storePasswordHash(em: EntityManager, userId: string, hash: string, now: Date): Promise<void> {
  await em
    .getConnection()
    .execute(`update "user" set password_hash = ?, password_changed_at = ?, updated_at = ? where sid = ?`, [
      hash,
      now,
      now,
      userId,
    ]);
}
