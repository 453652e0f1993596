import { publicKeyOfSeed } from "./ed25519.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Rules for the keypairs residents and companies store (API.md "Values"): the server keeps the public key and an
 * opaque, client-encrypted private key, and never a private key in plain.
 */

/** API.md: the encrypted private key is at most 4 KiB. */
export const MAX_ENCRYPTED_KEY_CHARS = 4096;
/** AES-GCM nonces: 12 bytes is the standard size; clients using a longer one are accepted up to 32. */
const NONCE_BYTES = { min: 12, max: 32 };
/** A 32-byte Ed25519 seed and a 16-byte GCM tag: no real ciphertext of a private key is shorter. */
const MIN_CIPHERTEXT_BYTES = 48;

const BLOB = /^([0-9a-fA-F]+):([0-9a-fA-F]+)$/;

/** Whether any 32-byte-aligned window of `bytes` is the seed of `publicKey` (a private key sent in plain). */
function holdsSeedOf(bytes: Uint8Array, publicKey: Uint8Array): boolean {
  for (let at = 0; at + 32 <= bytes.length; at += 32) {
    if (Buffer.from(publicKeyOfSeed(bytes.subarray(at, at + 32))).equals(publicKey)) return true;
  }
  return false;
}

/**
 * The encrypted private key a client sends: `hex(nonce):hex(ciphertext)`, at most 4 KiB, stored verbatim. Refused
 * when it cannot be such a ciphertext or when it visibly carries the private key of `publicKey` in plain (the seed
 * as nonce or at a 32-byte boundary of the ciphertext, the usual plain layouts seed and seed||public key).
 */
export function encryptedPrivateKeyRefusal(blob: string, publicKey: Uint8Array): Refusal<"InvalidInput"> | null {
  const field = { field: "encrypted_private_key" };
  if (blob.length > MAX_ENCRYPTED_KEY_CHARS) {
    return refuse("InvalidInput", `encrypted_private_key is over ${MAX_ENCRYPTED_KEY_CHARS} characters`, field);
  }
  const parts = BLOB.exec(blob);
  const nonceHex = parts?.[1] ?? "";
  const cipherHex = parts?.[2] ?? "";
  if (!parts || nonceHex.length % 2 !== 0 || cipherHex.length % 2 !== 0) {
    return refuse("InvalidInput", "encrypted_private_key must be hex(nonce):hex(ciphertext)", field);
  }
  const nonce = Buffer.from(nonceHex, "hex");
  const ciphertext = Buffer.from(cipherHex, "hex");
  if (nonce.length < NONCE_BYTES.min || nonce.length > NONCE_BYTES.max) {
    return refuse("InvalidInput", `the nonce must be ${NONCE_BYTES.min} to ${NONCE_BYTES.max} bytes`, field);
  }
  if (ciphertext.length < MIN_CIPHERTEXT_BYTES) {
    return refuse("InvalidInput", `the ciphertext must be at least ${MIN_CIPHERTEXT_BYTES} bytes (key and tag)`, field);
  }
  if (holdsSeedOf(nonce, publicKey) || holdsSeedOf(ciphertext, publicKey)) {
    return refuse("InvalidInput", "encrypted_private_key holds the private key in plain; encrypt it first", field);
  }
  return null;
}

/** The keys an entity holds or held, as far as key reads need them. */
export interface KeyState {
  public_key: string | null;
  keypair_version: number;
}

/** One key an entity held (a PublicKeyHistory row, or the current key of a row written before the history). */
export interface HeldKey {
  version: number;
  public_key: string;
  valid_from: Date;
  valid_to: Date | null;
}

/**
 * Every key of an entity, newest version first: the history rows, plus the current key when no history row has its
 * version (a key stored by a path that predates the history; shown as held since the entity was created).
 */
export function heldKeys(entity: KeyState & { created_at: Date }, history: HeldKey[]): HeldKey[] {
  const keys = [...history];
  if (entity.public_key !== null && !keys.some((k) => k.version === entity.keypair_version)) {
    keys.push({
      version: entity.keypair_version,
      public_key: entity.public_key,
      valid_from: entity.created_at,
      valid_to: null,
    });
  }
  return keys.sort((a, b) => b.version - a.version);
}
