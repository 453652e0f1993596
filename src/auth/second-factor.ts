import { formatBackupCode, isTotpShaped, matchTotp, normalizeBackupCode } from "../domain/totp.ts";
import * as users from "../repos/users.ts";
import { writeSurviving } from "../rpc/call-context.ts";
import type { RpcContext } from "../rpc/context.ts";
import { humanCode, sha256Hex } from "./tokens.ts";
import { openTotpSecret } from "./totp-secret.ts";

export type SecondFactor = "totp" | "backup_code";

export const BACKUP_CODE_COUNT = 10;

/** Ten one-time codes to show once, and their SHA-256 hashes to store. */
export function newBackupCodes(): { codes: string[]; hashes: string[] } {
  const raw = Array.from({ length: BACKUP_CODE_COUNT }, () => humanCode(10));
  return { codes: raw.map(formatBackupCode), hashes: raw.map((c) => sha256Hex(c)) };
}

/**
 * Checks a TOTP code or a backup code against the user's enabled factor and spends it, atomically: the TOTP step
 * is recorded with a conditional update (a code cannot be accepted twice, even by concurrent requests), and a
 * backup code is removed from the stored list in the same statement that finds it. An accepted code stays spent
 * even when the call then fails (a challenge spent concurrently, a suspended account): it was used once.
 */
export async function spendSecondFactor(
  ctx: Pick<RpcContext, "em" | "config" | "keepOnRollback">,
  userId: string,
  code: string,
  now: Date,
): Promise<SecondFactor | null> {
  if (isTotpShaped(code)) {
    const state = await users.totpStateOf(ctx.em, userId);
    if (!state?.totp_secret) return null;
    const secret = openTotpSecret(ctx.config, state.totp_secret);
    const step = matchTotp(secret, code.trim(), Math.floor(now.getTime() / 1000), state.totp_last_step);
    if (step === null) return null;
    const won = await writeSurviving(ctx, (em) => users.recordTotpStep(em, userId, step, now));
    return won === 1 ? "totp" : null;
  }
  const hash = sha256Hex(normalizeBackupCode(code));
  const won = await writeSurviving(ctx, (em) => users.spendBackupCode(em, userId, hash, now));
  return won === 1 ? "backup_code" : null;
}

export { backupCodesRemaining } from "../repos/users.ts";
