import type { EntityManager } from "@mikro-orm/postgresql";
import type { UserRow } from "../../generated/entities.ts";
import type { UserRole } from "../../generated/types.ts";
import type { Config } from "../config.ts";
import { isValidEmail, normalizeEmail } from "../domain/email.ts";
import { uuidv7 } from "../domain/ids.ts";
import * as users from "../repos/users.ts";
import { RpcError } from "../rpc/errors.ts";
import { checkPasswordRules, hashPassword } from "./passwords.ts";

export interface NewUser {
  email: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
  roles?: UserRole[];
}

/** Creates a user with an argon2id password; the email is unique (case-insensitive). */
export async function createUser(em: EntityManager, config: Config, now: Date, input: NewUser): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw RpcError.app("RegistrationError", "InvalidInput", "email is not a valid address");
  checkPasswordRules(input.password, email, "RegistrationError");
  if (await users.findUserByEmail(em, email))
    throw RpcError.app("RegistrationError", "AlreadyExists", "an account with this email already exists");
  const row = users.insertUser(em, {
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
  });
  await em.flush();
  return row;
}

export { findUserByEmail, findUserById, storePasswordHash } from "../repos/users.ts";
