import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Config } from "../config.ts";

const SEALED = "enc:";

/**
 * TOTP seeds must be readable again (unlike passwords), so they are encrypted at rest with AES-256-GCM when
 * ENCRYPTION_KEY is configured: `enc:hex(nonce):hex(ciphertext + tag)`. Without a configured key (a random one
 * per start) an encrypted seed would be lost at the next restart, so it is stored as it is.
 */
export function sealTotpSecret(config: Config, secret: string): string {
  if (!config.encryptionKeyConfigured) return secret;
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", config.encryptionKey, nonce);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED}${nonce.toString("hex")}:${body.toString("hex")}`;
}

export function openTotpSecret(config: Config, stored: string): string {
  if (!stored.startsWith(SEALED)) return stored;
  const [nonceHex = "", bodyHex = ""] = stored.slice(SEALED.length).split(":");
  const body = Buffer.from(bodyHex, "hex");
  const decipher = createDecipheriv("aes-256-gcm", config.encryptionKey, Buffer.from(nonceHex, "hex"));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString("utf8");
}
