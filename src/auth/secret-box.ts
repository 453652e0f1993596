import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets the server must read again (TOTP seeds, verified KYC personal fields) are sealed with AES-256-GCM under
 * the deployment's encryption key: `enc:hex(nonce):hex(ciphertext + tag)`, a fresh 12-byte nonce each time. The key
 * is ENCRYPTION_KEY, or on PGlite a key file kept in the data directory (docs/decisions.md "Encryption at rest").
 */
const SEALED = "enc:";
const TAG_BYTES = 16;

export function sealSecret(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED}${nonce.toString("hex")}:${body.toString("hex")}`;
}

/** Whether a stored value is sealed (rows written before sealing was mandatory hold plaintext). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED);
}

/** Opens a sealed value; throws when the key is wrong or the value was altered (GCM authentication). */
export function openSecret(key: Buffer, stored: string): string {
  if (!isSealed(stored)) throw new Error("value is not sealed");
  const [nonceHex = "", bodyHex = ""] = stored.slice(SEALED.length).split(":");
  const body = Buffer.from(bodyHex, "hex");
  if (body.length < TAG_BYTES) throw new Error("sealed value is truncated");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonceHex, "hex"));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
}
