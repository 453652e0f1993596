import type { UserRow } from "../../../generated/entities.ts";
import type {
  ChangePasswordResult,
  TotpEnrollBegin,
  TotpEnrollConfirm,
  TotpVerifyResult,
} from "../../../generated/types.ts";
import { reserveAttempt } from "../../auth/limits.ts";
import { backupCodesRemaining, newBackupCodes, spendSecondFactor } from "../../auth/second-factor.ts";
import { openTotpSecret, sealTotpSecret } from "../../auth/totp-secret.ts";
import { matchTotp, newTotpSecret, otpauthUri, TOTP_PARAMS } from "../../domain/totp.ts";
import * as users from "../../repos/users.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

const ISSUER = "Freezone";

async function user(ctx: RpcContext, userId: string): Promise<UserRow> {
  const row = await users.findUserById(ctx.em, userId);
  if (!row) throw RpcError.notFound("AuthError", "user");
  return row;
}

const totpOff = () => RpcError.app("AuthError", "InvalidState", "two-factor authentication is not on");
/** Second-factor failures share one per-account bucket across login_mfa and the step-up operations. */
const bucket = (userId: string) => `second-factor:${userId}`;

/** A pending secret (TOTP stays off until confirmed); calling again replaces a pending secret. */
export async function enrollBegin(ctx: RpcContext, userId: string): Promise<TotpEnrollBegin> {
  const account = await user(ctx, userId);
  if (account.totp_enabled) throw RpcError.app("AuthError", "InvalidState", "two-factor authentication is already on");
  const secret = newTotpSecret();
  await users.storePendingTotpSecret(ctx.em, userId, sealTotpSecret(ctx.config, secret), ctx.now());
  return {
    secret,
    otpauth_uri: otpauthUri(secret, account.email, ISSUER),
    algorithm: "SHA1",
    digits: TOTP_PARAMS.digits,
    period: TOTP_PARAMS.period,
  };
}

/** The first code proves the app holds the secret; TOTP turns on and ten backup codes are shown once. */
export async function enrollConfirm(ctx: RpcContext, userId: string, code: string): Promise<TotpEnrollConfirm> {
  const account = await user(ctx, userId);
  const pending = account.totp_secret;
  if (account.totp_enabled || !pending) {
    throw RpcError.app("AuthError", "InvalidState", "no TOTP enrolment is pending; begin one first");
  }
  const succeeded = await reserveAttempt(ctx, "AuthError", bucket(userId));
  const now = ctx.now();
  const step = matchTotp(openTotpSecret(ctx.config, pending), code.trim(), Math.floor(now.getTime() / 1000), null);
  if (step === null) throw RpcError.unauthenticated("InvalidCredentials", "wrong code");
  const { codes, hashes } = newBackupCodes();
  const won = await users.enableTotp(ctx.em, userId, pending, step, hashes, now);
  if (won === 0) throw RpcError.app("AuthError", "InvalidState", "the enrolment changed meanwhile; begin again");
  await succeeded();
  return { enabled: true, backup_codes: codes as TotpEnrollConfirm["backup_codes"] };
}

/** Step-up: a wrong code is an answer (valid false), not an error, but it counts toward the failure limit. */
export async function stepUp(ctx: RpcContext, userId: string, code: string): Promise<TotpVerifyResult> {
  const account = await user(ctx, userId);
  if (!account.totp_enabled) throw totpOff();
  const succeeded = await reserveAttempt(ctx, "AuthError", bucket(userId));
  const now = ctx.now();
  const method = await spendSecondFactor(ctx, userId, code, now);
  if (method !== null) await succeeded();
  return {
    valid: method !== null,
    method,
    verified_at: method === null ? null : now.toISOString(),
    backup_codes_remaining: await backupCodesRemaining(ctx.em, userId),
  };
}

/** Turning TOTP off needs a fresh code; the secret and the backup codes are deleted. */
export async function disable(ctx: RpcContext, userId: string, code: string): Promise<ChangePasswordResult> {
  const account = await user(ctx, userId);
  if (!account.totp_enabled) throw totpOff();
  const succeeded = await reserveAttempt(ctx, "AuthError", bucket(userId));
  const now = ctx.now();
  if ((await spendSecondFactor(ctx, userId, code, now)) === null) {
    throw RpcError.unauthenticated("InvalidCredentials", "wrong or already used code");
  }
  await turnTotpOff(ctx, userId, now);
  await succeeded();
  return { user_id: userId, changed: true, changed_at: now.toISOString(), sessions_revoked: 0, totp_enabled: false };
}

export async function turnTotpOff(ctx: Pick<RpcContext, "em">, userId: string, now: Date): Promise<void> {
  await users.disableTotp(ctx.em, userId, now);
}
