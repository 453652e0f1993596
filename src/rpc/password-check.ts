import type { ErrorType } from "../../generated/codes.ts";
import { reserveAttempt } from "../auth/limits.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { passwordHashOf } from "../repos/users.ts";
import type { RpcContext } from "./context.ts";
import { RpcError } from "./errors.ts";

/**
 * Password re-entry (x-password), for the dispatcher and for approving a parked call that takes one: the signed-in
 * caller's account password, or PasswordRequired / WrongPassword of `type`. Re-entry can be guessed with a stolen
 * session: wrong passwords count per account like failed logins.
 */
export async function checkAccountPassword(ctx: RpcContext, type: ErrorType, password: unknown): Promise<void> {
  if (!ctx.caller) return;
  if (typeof password !== "string" || password.length === 0) {
    throw RpcError.forbidden(type, "PasswordRequired", "this operation needs the account password");
  }
  const succeeded = await reserveAttempt(ctx, type, `password:${ctx.caller.userId}`);
  const hash = await passwordHashOf(ctx.em, ctx.caller.userId);
  if (hash === null || !(await verifyPassword(hash, password))) {
    throw RpcError.forbidden(type, "WrongPassword", "wrong password");
  }
  await succeeded();
}
