import type { EntityManager } from "@mikro-orm/postgresql";
import type { Config } from "../config.ts";
import { affected } from "../db/sql.ts";
import { formatBackupCode, isTotpShaped, matchTotp, normalizeBackupCode } from "../domain/totp.ts";
import { humanCode, sha256Hex } from "./tokens.ts";
import { openTotpSecret } from "./totp-secret.ts";

export type SecondFactor = "totp" | "backup_code";

export const BACKUP_CODE_COUNT = 10;

/** Ten one-time codes to show once, and their SHA-256 hashes to store. */
export function newBackupCodes(): { codes: string[]; hashes: string[] } {
  const raw = Array.from({ length: BACKUP_CODE_COUNT }, () => humanCode(10));
  return { codes: raw.map(formatBackupCode), hashes: raw.map((c) => sha256Hex(c)) };
}

interface FactorRow {
  totp_secret: string | null;
  totp_last_step: string | number | null;
}

/**
 * Checks a TOTP code or a backup code against the user's enabled factor and spends it, atomically: the TOTP step
 * is recorded with a conditional update (a code cannot be accepted twice, even by concurrent requests), and a
 * backup code is removed from the stored list in the same statement that finds it.
 */
export async function spendSecondFactor(
  em: EntityManager,
  config: Config,
  userId: string,
  code: string,
  now: Date,
): Promise<SecondFactor | null> {
  if (isTotpShaped(code)) {
    const rows = await em.execute<FactorRow[]>(
      `select totp_secret, totp_last_step from "user" where sid = ? and totp_enabled`,
      [userId],
    );
    const row = rows[0];
    if (!row?.totp_secret) return null;
    const last = row.totp_last_step === null ? null : Number(row.totp_last_step);
    const step = matchTotp(
      openTotpSecret(config, row.totp_secret),
      code.trim(),
      Math.floor(now.getTime() / 1000),
      last,
    );
    if (step === null) return null;
    const won = await affected(
      em,
      `update "user" set totp_last_step = ?, updated_at = ?
        where sid = ? and totp_enabled and (totp_last_step is null or totp_last_step < ?)`,
      [step, now, userId, step],
    );
    return won === 1 ? "totp" : null;
  }
  const hash = sha256Hex(normalizeBackupCode(code));
  const won = await affected(
    em,
    `update "user" set backup_code_hashes = array_remove(backup_code_hashes, ?), updated_at = ?
      where sid = ? and totp_enabled and ? = any(backup_code_hashes)`,
    [hash, now, userId, hash],
  );
  return won === 1 ? "backup_code" : null;
}

export async function backupCodesRemaining(em: EntityManager, userId: string): Promise<number> {
  const rows = await em.execute<{ n: number | string | null }[]>(
    `select coalesce(array_length(backup_code_hashes, 1), 0) as n from "user" where sid = ?`,
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}
