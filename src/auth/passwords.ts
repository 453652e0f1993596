import { hash, verify } from "@node-rs/argon2";
import type { Argon2Cost } from "../config.ts";
import { RpcError } from "../rpc/errors.ts";
import { isCommonPassword } from "./common-passwords.ts";

const ARGON2ID = 2;

export function hashPassword(password: string, cost: Argon2Cost): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, ...cost });
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/** Spends the same time as a real check, so an unknown account is not told apart from a wrong password. */
export async function verifyAgainstDummy(password: string, cost: Argon2Cost): Promise<false> {
  dummyHash ??= hashPassword("dummy-password-for-timing", cost);
  await verifyPassword(await dummyHash, password);
  return false;
}

/** API.md password rules: 8 to 128 characters, not the email, not a common password. */
export function checkPasswordRules(password: string, email: string, type: "AuthError" | "RegistrationError"): void {
  const fail = (rule: string) => {
    throw RpcError.app(type, "WeakPassword", `password ${rule}`, { rule });
  };
  if (password.length < 8) fail("must have at least 8 characters");
  if (password.length > 128) fail("must have at most 128 characters");
  if (password.toLowerCase() === email.toLowerCase()) fail("must not equal the email");
  if (isCommonPassword(password)) fail("is too common");
}
