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
  if (!EMAIL.test(email) || email.length > 254)
    throw RpcError.app("RegistrationError", "InvalidInput", "email is not a valid address");
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
