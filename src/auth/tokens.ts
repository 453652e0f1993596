import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** An opaque credential: prefix + 32 random bytes in base64url. */
export function newToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const TOKEN_PREFIX = {
  session: "fzs_",
  refresh: "fzr_",
  personalKey: "fz_u_",
  resellerKey: "fz_r_",
  mfaChallenge: "fzm_",
  emailVerification: "fzv_",
  passwordReset: "fzp_",
  partnerClientId: "fzpc_",
  partnerSecret: "fzps_",
} as const;

/** A random string of `length` characters from an alphabet without look-alikes (0/O, 1/l/I), for human entry. */
export function humanCode(length: number): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(length * 2);
  let out = "";
  // Rejection sampling keeps every character equally likely.
  for (const b of bytes) {
    if (b >= 256 - (256 % alphabet.length)) continue;
    out += alphabet[b % alphabet.length];
    if (out.length === length) return out;
  }
  return out + humanCode(length - out.length);
}
