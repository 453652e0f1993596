import type { UserRow } from "../../../generated/entities.ts";
import type { AuthResult, MfaChallengeResult } from "../../../generated/types.ts";
import { limitAddress, loginBucket, reserveAttempt } from "../../auth/limits.ts";
import { verifyAgainstDummy, verifyPassword } from "../../auth/passwords.ts";
import { openSession } from "../../auth/sessions.ts";
import { findUserByEmail } from "../../auth/users.ts";
import { normalizeEmail } from "../../domain/email.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

export const invalidLogin = (): RpcError => RpcError.unauthenticated("InvalidCredentials", "wrong email or password");

/**
 * Checks email and password under the address and per-account limits. An unknown email costs one argon2
 * verification like a wrong password, and both answer the same InvalidCredentials.
 */
export async function checkLogin(ctx: RpcContext, email: string, password: string): Promise<UserRow> {
  await limitAddress(ctx, "AuthError");
  const normalized = normalizeEmail(email);
  const succeeded = await reserveAttempt(ctx, "AuthError", loginBucket(normalized));
  const user = await findUserByEmail(ctx.em, normalized);
  const ok = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyAgainstDummy(password, ctx.config.argon2);
  if (!user || !ok) throw invalidLogin();
  await succeeded();
  if (user.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  return user;
}

/** A session, or an MFA challenge when TOTP is on (`issueChallenge` comes from the MFA module). */
export async function login(
  ctx: RpcContext,
  email: string,
  password: string,
  issueChallenge: (ctx: RpcContext, user: UserRow) => Promise<MfaChallengeResult>,
): Promise<AuthResult> {
  const user = await checkLogin(ctx, email, password);
  if (user.totp_enabled) return issueChallenge(ctx, user);
  return (await openSession(ctx.em, ctx.config, ctx.now(), user.sid, ctx.request)).result;
}
