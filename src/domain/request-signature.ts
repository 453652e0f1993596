import { createHash } from "node:crypto";
import { type Ed25519Failure, lowercaseHex, PUBLIC_KEY_BYTES, SIGNATURE_BYTES, verifyEd25519 } from "./ed25519.ts";

/**
 * Signatures over canonical request payloads (reseller registration requests and their approval). A payload is a
 * JSON array of strings, nulls and arrays of strings, serialised as RFC 8785 (JCS) text, which for these values is
 * exactly `JSON.stringify`; the signed message is the 32 raw bytes of its SHA-256 (API.md "Values": signatures are
 * over a 32-byte hash). The cryptography is the project's one strict verification, src/domain/ed25519.ts.
 */

export type PayloadValue = string | null | readonly string[];

/** The RFC 8785 text of a payload (strings, nulls and string arrays only, so JSON.stringify is already canonical). */
export function canonicalPayload(values: readonly PayloadValue[]): string {
  return JSON.stringify(values);
}

/** The message a signature covers: SHA-256 of the payload's UTF-8 text, 32 raw bytes. */
export function payloadDigest(payload: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(payload, "utf8").digest());
}

export type SignatureVerdict = "valid" | Ed25519Failure;

/** Strict verification of a 128-hex signature over `message` with a 64-hex public key; non-hex is malformed. */
export function verifyRequestSignature(
  publicKeyHex: string,
  message: Uint8Array,
  signatureHex: string,
): SignatureVerdict {
  const key = lowercaseHex(publicKeyHex, PUBLIC_KEY_BYTES, "public_key");
  if (!(key instanceof Uint8Array)) return "malformed_public_key";
  const signature = lowercaseHex(signatureHex, SIGNATURE_BYTES, "signature");
  if (!(signature instanceof Uint8Array)) return "malformed_signature";
  const verdict = verifyEd25519(key, message, signature);
  return verdict.valid ? "valid" : verdict.reason;
}
