import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  randomBytes,
  scryptSync,
  sign,
} from "node:crypto";

const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const privateKeyOf = (secret: Buffer) =>
  createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, secret]), format: "der", type: "pkcs8" });

/**
 * A resident's client-side keypair as the console makes one: an Ed25519 key, its public half as 64 hex, its private
 * half sealed with AES-256-GCM under a key derived from the demo password (`iv:ciphertext+tag`, hex). The key is
 * derived from the password and `salt` (the demo email), so a run that resumes an interrupted one (a KYC session
 * opened with the key) makes the same key: demo accounts only.
 */
export function residentKeypair(password: string, salt: string): { publicKey: string; encryptedPrivateKey: string } {
  const secret = scryptSync(password, `ed25519:${salt}`, 32);
  const raw = createPublicKey(privateKeyOf(secret)).export({ format: "der", type: "spki" }).subarray(-32);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", scryptSync(password, salt, 32), iv);
  const sealed = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
  return { publicKey: raw.toString("hex"), encryptedPrivateKey: `${iv.toString("hex")}:${sealed.toString("hex")}` };
}

/** The private key sealed by `residentKeypair`, opened with the same password and salt. */
export function openPrivateKey(encryptedPrivateKey: string, password: string, salt: string): KeyObject {
  const [iv = "", sealed = ""] = encryptedPrivateKey.split(":");
  const bytes = Buffer.from(sealed, "hex");
  const decipher = createDecipheriv("aes-256-gcm", scryptSync(password, salt, 32), Buffer.from(iv, "hex"));
  decipher.setAuthTag(bytes.subarray(-16));
  const secret = Buffer.concat([decipher.update(bytes.subarray(0, -16)), decipher.final()]);
  return privateKeyOf(secret);
}

/** An Ed25519 signature (128 hex) over the bytes of a SHA-256 hex digest, as the platform verifies signing hashes. */
export function signHash(key: KeyObject, hashHex: string): string {
  return sign(null, Buffer.from(hashHex, "hex"), key).toString("hex");
}
