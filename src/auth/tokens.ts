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
} as const;
