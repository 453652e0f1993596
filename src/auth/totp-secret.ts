import type { Config } from "../config.ts";
import { isSealed, openSecret, sealSecret } from "./secret-box.ts";

/** TOTP seeds must be readable again (unlike passwords): sealed at rest (src/auth/secret-box.ts). */
export function sealTotpSecret(config: Config, secret: string): string {
  return sealSecret(config.encryptionKey, secret);
}

/** A seed stored before sealing was mandatory (plaintext) is still read as it is. */
export function openTotpSecret(config: Config, stored: string): string {
  return isSealed(stored) ? openSecret(config.encryptionKey, stored) : stored;
}
