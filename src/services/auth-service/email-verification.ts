import type { UserRow } from "../../../generated/entities.ts";
import type { VerifyEmailResult } from "../../../generated/types.ts";
import { limitAddress, limitQuota } from "../../auth/limits.ts";
import { newToken, sha256Hex, TOKEN_PREFIX } from "../../auth/tokens.ts";
import { findUserByEmail } from "../../auth/users.ts";
import { oneTimeTokenRefusal } from "../../domain/credentials.ts";
import { isValidEmail, normalizeEmail } from "../../domain/email.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { sendEmail } from "../../integrations/email/index.ts";
import { verifyEmailMessage } from "../../integrations/email/templates.ts";
import * as tokens from "../../repos/email-verification-tokens.ts";
import { markEmailVerified } from "../../repos/users.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

export const EMAIL_VERIFICATION_TTL_S = 24 * 3600;

/** Sends a one-time verification link; the token is stored only as SHA-256 and only once the email went out. */
export async function issueVerificationEmail(ctx: RpcContext, user: Pick<UserRow, "sid" | "email">): Promise<void> {
  const now = ctx.now();
  const token = newToken(TOKEN_PREFIX.emailVerification);
  const message = verifyEmailMessage(user.email, ctx.config.publicBaseUrl, token, EMAIL_VERIFICATION_TTL_S / 3600);
  await sendEmail(ctx, "EmailError", message);
  tokens.insertVerificationToken(ctx.em, {
    sid: uuidv7(now),
    user_id: user.sid,
    token_hash: sha256Hex(token),
    expires_at: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_S * 1000),
    used: false,
    created_at: now,
    updated_at: now,
  });
}

/** The same answer whether or not the address has an account, or is already verified. */
export async function sendVerificationEmail(ctx: RpcContext, email: string): Promise<VerifyEmailResult> {
  await limitAddress(ctx, "EmailError");
  const normalized = normalizeEmail(email);
  if (!isValidEmail(normalized)) throw RpcError.app("EmailError", "InvalidInput", "email is not a valid address");
  // Counted per address whether or not it has an account, so the limit itself tells nothing.
  const { emailsPerAddressPerHour } = ctx.config.rateLimits;
  await limitQuota(ctx, "EmailError", `mail:${normalized}`, emailsPerAddressPerHour, 3600);
  const user = await findUserByEmail(ctx.em, normalized);
  if (user && !user.email_verified && !user.is_suspended && user.partner_id === null)
    await issueVerificationEmail(ctx, user);
  return { status: "sent", email, email_verified: null, verified_at: null };
}

const linkUsed = () => RpcError.app("EmailError", "AlreadyUsed", "this verification link was already used");

export async function verifyEmail(ctx: RpcContext, token: string): Promise<VerifyEmailResult> {
  await limitAddress(ctx, "EmailError");
  const now = ctx.now();
  const row = await tokens.findVerificationToken(ctx.em, sha256Hex(token));
  if (!row) throw RpcError.app("EmailError", "NotFound", "unknown verification token");
  const refusal = oneTimeTokenRefusal({ used: row.used, expiresAt: row.expires_at }, now);
  if (refusal === "AlreadyUsed") throw linkUsed();
  if (refusal === "Expired") throw RpcError.app("EmailError", "Expired", "this verification link has expired");
  if (!(await tokens.claimVerificationToken(ctx.em, row.sid, now))) throw linkUsed();
  await markEmailVerified(ctx.em, row.user_id, now);
  return { status: "verified", email: row.email, email_verified: true, verified_at: now.toISOString() };
}
