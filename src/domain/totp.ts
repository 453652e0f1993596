import { generateSecret, generateSync, generateURI, verifySync } from "otplib";

/** What authenticator apps are told (API.md TotpEnrollBegin): RFC 6238 defaults. */
export const TOTP_PARAMS = { algorithm: "sha1", digits: 6, period: 30 } as const;

export type TotpAlgorithm = "sha1" | "sha256" | "sha512";

export interface TotpOptions {
  algorithm?: TotpAlgorithm;
  digits?: 6 | 7 | 8;
  period?: number;
}

/** The code for `epochS` (RFC 6238); a string secret is base32, raw bytes are used as they are. */
export function totpCode(secret: string | Uint8Array, epochS: number, options: TotpOptions = {}): string {
  const { algorithm = "sha1", digits = 6, period = 30 } = options;
  return generateSync({ secret, epoch: epochS, algorithm, digits, period });
}

/** The RFC 6238 time step of an instant. */
export function timeStep(epochS: number, period = TOTP_PARAMS.period): number {
  return Math.floor(epochS / period);
}

/**
 * The time step a code matches, within one step either side of now (clock drift), and only if it is later than
 * `lastStep`: a code, once accepted, cannot be replayed in its window, nor can an older one. Null otherwise.
 */
export function matchTotp(secret: string, code: string, epochS: number, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = verifySync({
      secret,
      token: code,
      epoch: epochS,
      epochTolerance: TOTP_PARAMS.period,
      ...TOTP_PARAMS,
      ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
    });
    return result.valid && "timeStep" in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/** A new shared secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function otpauthUri(secret: string, account: string, issuer: string): string {
  return generateURI({ issuer, label: account, secret, ...TOTP_PARAMS });
}

/** Looks like a TOTP code (six digits) rather than a backup code. */
export function isTotpShaped(code: string): boolean {
  return /^\d{6}$/.test(code.trim());
}

/** Backup codes are typed by hand: case, spaces and hyphens do not matter. */
export function normalizeBackupCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

/** Displayed as `xxxxx-xxxxx`. */
export function formatBackupCode(raw: string): string {
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}
