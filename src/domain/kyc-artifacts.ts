import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Partner KYC artifacts (docs/decisions.md "KYC artifacts"): the payload is AES-256-GCM under the partner's artifact
 * key for one of its API keys, `hex(12-byte nonce):hex(ciphertext followed by the 16-byte tag)`. The artifact key is
 * derived from the deployment key with HKDF-SHA256, so it is never stored and an administrator can always decrypt.
 */

export const ARTIFACT_SCHEME = "aes-256-gcm-v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_SALT = "freezone/kyc-artifact/v1";

export interface ArtifactCiphertext {
  nonce: Buffer;
  /** Ciphertext followed by the GCM tag. */
  sealed: Buffer;
}

export function schemeRefusal(scheme: string): Refusal<"InvalidInput"> | null {
  return scheme === ARTIFACT_SCHEME
    ? null
    : refuse("InvalidInput", `unknown encryption_scheme (known: ${ARTIFACT_SCHEME})`, { field: "encryption_scheme" });
}

/** `hex(nonce):hex(ciphertext+tag)` with a 12-byte nonce and at least one byte of ciphertext besides the tag. */
export function parseArtifactPayload(text: string): ArtifactCiphertext | Refusal<"InvalidInput"> {
  const bad = refuse(
    "InvalidInput",
    "encrypted_payload must be hex(12-byte nonce):hex(ciphertext and 16-byte tag), lowercase",
    { field: "encrypted_payload" },
  );
  const m = /^([0-9a-f]+):([0-9a-f]+)$/.exec(text);
  if (!m) return bad;
  const [, nonceHex = "", sealedHex = ""] = m;
  if (nonceHex.length !== NONCE_BYTES * 2 || sealedHex.length % 2 !== 0 || sealedHex.length <= TAG_BYTES * 2)
    return bad;
  return { nonce: Buffer.from(nonceHex, "hex"), sealed: Buffer.from(sealedHex, "hex") };
}

/** `payload_hash`: SHA-256 hex over the encrypted bytes, the nonce followed by the ciphertext and tag. */
export function artifactPayloadHash(c: ArtifactCiphertext): string {
  return createHash("sha256").update(c.nonce).update(c.sealed).digest("hex");
}

/** The AES-256 key of the pair (partner, key id), derived from the deployment key. */
export function artifactKey(deploymentKey: Buffer, partnerId: string, keyId: string): Buffer {
  return Buffer.from(hkdfSync("sha256", deploymentKey, HKDF_SALT, `${partnerId}:${keyId}`, 32));
}

/** The plaintext (UTF-8), or null when the payload does not open under the key (wrong key or altered bytes). */
export function openArtifact(key: Buffer, c: ArtifactCiphertext): string | null {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, c.nonce);
    decipher.setAuthTag(c.sealed.subarray(c.sealed.length - TAG_BYTES));
    const body = c.sealed.subarray(0, c.sealed.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** What a partner's client does before submit_artifact (the reference implementation; tests use it). */
export function sealArtifact(key: Buffer, plaintext: string, nonce: Buffer = randomBytes(NONCE_BYTES)): string {
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${nonce.toString("hex")}:${sealed.toString("hex")}`;
}
