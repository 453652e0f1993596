import { createHash } from "node:crypto";
import * as ed from "@noble/ed25519";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * The project's one Ed25519 verification (API.md "Values": strict RFC 8032). Every signature the server checks goes
 * through `verifyEd25519`: keys and signatures of residents and companies, and what later issues verify (reseller
 * and administrator signatures). Strict means: the key and R are canonical encodings of curve points (y < p, no
 * "negative zero"), S is below the group order L (no malleable second signature), the key is not of small order (a
 * small-order key makes one signature valid for many messages), and the equation holds. The checks are made here,
 * in this order, so a refusal says which rule failed; the final equation is @noble/ed25519's strict branch
 * (`zip215: false`), which applies the same encoding rules again.
 */

// The synchronous API needs SHA-512; node:crypto's is the fastest at hand.
ed.hashes.sha512 ??= (message) => new Uint8Array(createHash("sha512").update(message).digest());

/** The order of the Ed25519 base point (RFC 8032 section 5.1). */
export const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;

export const PUBLIC_KEY_BYTES = 32;
export const SIGNATURE_BYTES = 64;
export const DOCUMENT_HASH_BYTES = 32;

/** Why a verification failed: the first four are encodings a strict verifier refuses before any arithmetic. */
export type Ed25519Failure =
  | "malformed_public_key"
  | "small_order_public_key"
  | "malformed_signature"
  | "non_canonical_signature"
  | "bad_signature";

export type Ed25519Verdict = { valid: true } | { valid: false; reason: Ed25519Failure };

function decodesAsPoint(bytes: Uint8Array): ed.Point | null {
  try {
    return ed.Point.fromBytes(bytes, false);
  } catch {
    return null;
  }
}

function littleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] ?? 0);
  return n;
}

/** What is wrong with a public key's encoding, or null: 32 bytes, a canonical point, not of small order. */
export function publicKeyProblem(key: Uint8Array): "malformed_public_key" | "small_order_public_key" | null {
  if (key.length !== PUBLIC_KEY_BYTES) return "malformed_public_key";
  const point = decodesAsPoint(key);
  if (!point) return "malformed_public_key";
  return point.isSmallOrder() ? "small_order_public_key" : null;
}

/** What is wrong with a signature's encoding, or null: 64 bytes, R a canonical point, S < L (RFC 8032 5.1.7). */
export function signatureProblem(signature: Uint8Array): "malformed_signature" | "non_canonical_signature" | null {
  if (signature.length !== SIGNATURE_BYTES) return "malformed_signature";
  if (littleEndian(signature.subarray(32)) >= GROUP_ORDER) return "non_canonical_signature";
  return decodesAsPoint(signature.subarray(0, 32)) ? null : "non_canonical_signature";
}

/** Strict RFC 8032 verification of `signature` over `message` under `publicKey` (raw bytes, any lengths). */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Ed25519Verdict {
  const reason = publicKeyProblem(publicKey) ?? signatureProblem(signature);
  if (reason) return { valid: false, reason };
  return ed.verify(signature, message, publicKey, { zip215: false })
    ? { valid: true }
    : { valid: false, reason: "bad_signature" };
}

/** Lowercase hex of exactly `bytes` bytes, decoded; anything else is refused naming the field. */
export function lowercaseHex(value: string, bytes: number, field: string): Uint8Array | Refusal<"InvalidInput"> {
  if (value.length !== bytes * 2 || !/^[0-9a-f]*$/.test(value)) {
    return refuse("InvalidInput", `${field} must be ${bytes * 2} lowercase hex characters`, { field });
  }
  return Uint8Array.from(Buffer.from(value, "hex"));
}

const KEY_MESSAGES: Record<"malformed_public_key" | "small_order_public_key", string> = {
  malformed_public_key: "public_key is not a canonical Ed25519 point encoding",
  small_order_public_key: "public_key is a small-order point (it would verify forged signatures)",
};

const SIGNATURE_MESSAGES: Record<"malformed_signature" | "non_canonical_signature", string> = {
  malformed_signature: "signature must be 64 bytes",
  non_canonical_signature: "signature is not canonical (S must be below the group order and R a canonical point)",
};

/** A public key as params carry it (64 lowercase hex), usable for strict verification. */
export function parsePublicKey(hex: string, field = "public_key"): Uint8Array | Refusal<"InvalidInput"> {
  const bytes = lowercaseHex(hex, PUBLIC_KEY_BYTES, field);
  if (!(bytes instanceof Uint8Array)) return bytes;
  const problem = publicKeyProblem(bytes);
  return problem ? refuse("InvalidInput", KEY_MESSAGES[problem], { field, reason: problem }) : bytes;
}

/** A signature as params carry it (128 lowercase hex), canonically encoded. */
export function parseSignature(hex: string, field = "signature"): Uint8Array | Refusal<"InvalidInput"> {
  const bytes = lowercaseHex(hex, SIGNATURE_BYTES, field);
  if (!(bytes instanceof Uint8Array)) return bytes;
  const problem = signatureProblem(bytes);
  return problem ? refuse("InvalidInput", SIGNATURE_MESSAGES[problem], { field, reason: problem }) : bytes;
}

/** The signed message: the 32 raw bytes of a lowercase hex SHA-256 (API.md "signed message"). */
export function parseDocumentHash(hex: string, field = "document_hash"): Uint8Array | Refusal<"InvalidInput"> {
  return lowercaseHex(hex, DOCUMENT_HASH_BYTES, field);
}

/** The public key of a 32-byte Ed25519 secret (seed): to recognise a private key sent in plain. */
export function publicKeyOfSeed(seed: Uint8Array): Uint8Array {
  return ed.getPublicKey(seed);
}
