import { hash, verify } from "@node-rs/argon2";
import type { Argon2Cost } from "../config.ts";
import { brokenPasswordRule } from "../domain/password-rules.ts";
import { RpcError } from "../rpc/errors.ts";

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

/** Refuses a new password that breaks a rule (src/domain/password-rules.ts) as WeakPassword of `type`. */
export function checkPasswordRules(password: string, email: string, type: "AuthError" | "RegistrationError"): void {
  const rule = brokenPasswordRule(password, email);
  if (rule !== null) throw RpcError.app(type, "WeakPassword", `password ${rule}`, { rule });
}
