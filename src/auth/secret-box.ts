import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets the server must read again (TOTP seeds, verified KYC personal fields) are sealed with AES-256-GCM under
 * the deployment's encryption key: `enc:hex(nonce):hex(ciphertext + tag)`, a fresh 12-byte nonce each time. The key
 * is ENCRYPTION_KEY, or on PGlite a key file kept in the data directory (docs/decisions.md "Encryption at rest").
 */
const SEALED = "enc:";
const TAG_BYTES = 16;
const NONCE_BYTES = 12;

export function sealSecret(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(NONCE_BYTES);
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
  return openSealedBytes(key, Buffer.from(nonceHex, "hex"), Buffer.from(bodyHex, "hex")).toString("utf8");
}

/**
 * AES-256-GCM decryption of `ciphertext + tag` as sealSecret writes it: a 32-byte key, a 12-byte nonce (sealSecret
 * never writes another length, so another is refused), a 16-byte tag, no associated data. Throws on any mismatch.
 */
export function openSealedBytes(key: Buffer, nonce: Buffer, body: Buffer): Buffer {
  if (key.length !== 32) throw new Error("the encryption key is not 32 bytes");
  if (nonce.length !== NONCE_BYTES) throw new Error("sealed value has a bad nonce");
  if (body.length < TAG_BYTES) throw new Error("sealed value is truncated");
  const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
}
