import type { UserRow } from "../../../generated/entities.ts";
import type { ChangePasswordResult, PasswordResetRequestResult } from "../../../generated/types.ts";
import { revokeKeysOnRecovery } from "../../auth/key-revocation.ts";
import { forgetFailures, limitAddress, limitQuota, loginBucket } from "../../auth/limits.ts";
import { checkPasswordRules, hashPassword } from "../../auth/passwords.ts";
import { revokeUserSessions } from "../../auth/sessions.ts";
import { newToken, sha256Hex, TOKEN_PREFIX } from "../../auth/tokens.ts";
import { findUserByEmail, storePasswordHash } from "../../auth/users.ts";
import { oneTimeTokenRefusal } from "../../domain/credentials.ts";
import { isValidEmail, normalizeEmail } from "../../domain/email.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { sendEmail } from "../../integrations/email/index.ts";
import { passwordResetMessage } from "../../integrations/email/templates.ts";
import * as resetTokens from "../../repos/password-reset-tokens.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

export const PASSWORD_RESET_TTL_S = 3600;
const ACCEPTED = "If the address has an account, a link to reset the password was sent to it.";

const linkUsed = () => RpcError.app("AuthError", "AlreadyUsed", "this reset link was already used");
const epochSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/** Sends a one-time reset link when the address has an account; answers the same either way. */
export async function requestPasswordReset(ctx: RpcContext, email: string): Promise<PasswordResetRequestResult> {
  await limitAddress(ctx, "AuthError");
  const normalized = normalizeEmail(email);
  if (!isValidEmail(normalized)) throw RpcError.app("EmailError", "InvalidInput", "email is not a valid address");
  await limitQuota(ctx, "AuthError", `reset:${normalized}`, ctx.config.rateLimits.emailsPerAddressPerHour, 3600);
  const user = await findUserByEmail(ctx.em, normalized);
  if (user && !user.is_suspended && user.partner_id === null) {
    const now = ctx.now();
    const token = newToken(TOKEN_PREFIX.passwordReset);
    await sendEmail(
      ctx,
      "EmailError",
      passwordResetMessage(user.email, ctx.config.publicBaseUrl, token, PASSWORD_RESET_TTL_S / 60),
    );
    resetTokens.insertResetToken(ctx.em, {
      sid: uuidv7(now),
      token_hash: sha256Hex(token),
      email: user.email,
      expires_at: epochSeconds(now) + PASSWORD_RESET_TTL_S,
      used: false,
      created_at: now,
      updated_at: now,
    });
  }
  return { accepted: true, email, message: ACCEPTED };
}

/**
 * Sets a new password with a reset token: the token (and every other open token of the address) is spent and
 * every session of the account ends. TOTP stays as it was; the per-account login lockout is lifted.
 */
export async function resetPassword(
  ctx: RpcContext,
  token: string,
  newPassword: string,
): Promise<ChangePasswordResult> {
  await limitAddress(ctx, "AuthError");
  const now = ctx.now();
  const row = await resetTokens.findResetToken(ctx.em, sha256Hex(token));
  if (!row) throw RpcError.unauthenticated("InvalidCredentials", "unknown reset token");
  // PasswordResetToken.expires_at is in Unix seconds.
  const refusal = oneTimeTokenRefusal({ used: row.used, expiresAt: new Date(row.expires_at * 1000) }, now);
  if (refusal === "AlreadyUsed") throw linkUsed();
  if (refusal === "Expired") throw RpcError.app("AuthError", "Expired", "this reset link has expired");
  const user = await findUserByEmail(ctx.em, row.email);
  if (!user) throw RpcError.unauthenticated("InvalidCredentials", "unknown reset token");
  checkPasswordRules(newPassword, user.email, "AuthError");
  const hash = await hashPassword(newPassword, ctx.config.argon2);
  if (!(await resetTokens.claimResetToken(ctx.em, row.sid, now))) {
    throw linkUsed();
  }
  await resetTokens.spendResetTokensOf(ctx.em, user.email, now);
  await storePasswordHash(ctx.em, user.sid, hash, now);
  await forgetFailures(ctx, loginBucket(user.email));
  await revokeKeysOnRecovery(ctx, user.sid, now);
  return passwordChanged(user, now, await revokeUserSessions(ctx.em, user.sid, now));
}

/** What change_password and reset_password answer once the new hash is stored. */
export function passwordChanged(
  user: Pick<UserRow, "sid" | "totp_enabled">,
  now: Date,
  sessionsRevoked: number,
): ChangePasswordResult {
  return {
    user_id: user.sid,
    changed: true,
    changed_at: now.toISOString(),
    sessions_revoked: sessionsRevoked,
    totp_enabled: user.totp_enabled,
  };
}
