import { createHash } from "node:crypto";
import * as ed from "@noble/ed25519";

/**
 * Signatures over canonical request payloads (reseller registration requests and their approval). A payload is a
 * JSON array of strings, nulls and arrays of strings, serialised as RFC 8785 (JCS) text, which for these values is
 * exactly `JSON.stringify`; the signed message is the 32 raw bytes of its SHA-256 (API.md "Values": signatures are
 * over a 32-byte hash). Verification is strict RFC 8032 through @noble/ed25519's `zip215: false` branch: canonical
 * point encodings, S below the group order, no small-order keys.
 *
 * Kept apart from src/domain/ed25519.ts (the project's verifier with the RFC 8032 and Wycheproof vectors, written on
 * another branch): fold `verifyRequestSignature` into it when both have landed.
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

/** Lowercase hex of exactly `bytes` bytes, or null. */
function hexBytes(value: string, bytes: number): Uint8Array | null {
  if (value.length !== bytes * 2 || !/^[0-9a-f]*$/.test(value)) return null;
  return Uint8Array.from(Buffer.from(value, "hex"));
}

export type SignatureVerdict = "valid" | "malformed_public_key" | "malformed_signature" | "bad_signature";

/**
 * Strict verification of a 128-hex signature over `message` with a 64-hex public key. Non-canonical encodings, a
 * malleable S (>= L) and small-order keys all answer `bad_signature` (noble's strict branch refuses them).
 */
export async function verifyRequestSignature(
  publicKeyHex: string,
  message: Uint8Array,
  signatureHex: string,
): Promise<SignatureVerdict> {
  const key = hexBytes(publicKeyHex, 32);
  if (!key) return "malformed_public_key";
  const signature = hexBytes(signatureHex, 64);
  if (!signature) return "malformed_signature";
  try {
    return (await ed.verifyAsync(signature, message, key, { zip215: false })) ? "valid" : "bad_signature";
  } catch {
    return "bad_signature";
  }
}
