import type { EntityType, VerifyResult } from "../../../../generated/types.ts";
import { parseDocumentHash, parseSignature, verifyEd25519 } from "../../../domain/ed25519.ts";
import type { HeldKey } from "../../../domain/keypairs.ts";
import { isRefusal, type Refusal } from "../../../domain/refusal.ts";

/** Signature checks as the verify operations answer them (VerifyResult); the cryptography is src/domain/ed25519.ts. */

export interface SignedInput {
  signature: Uint8Array;
  message: Uint8Array;
}

/** The signature and the signed message (the 32 bytes of document_hash) from params, or the InvalidInput refusal. */
export function signedInput(signature: string, documentHash: string): SignedInput | Refusal<"InvalidInput"> {
  const sig = parseSignature(signature);
  if (isRefusal(sig)) return sig;
  const message = parseDocumentHash(documentHash);
  if (isRefusal(message)) return message;
  return { signature: sig, message };
}

/** Why `publicKey` (stored hex) does not verify the input, or null when it does; a stored key unusable is malformed. */
export function failureWith(publicKey: string, input: SignedInput): VerifyResult["reason"] {
  const verdict = verifyEd25519(Uint8Array.from(Buffer.from(publicKey, "hex")), input.message, input.signature);
  if (verdict.valid) return null;
  return verdict.reason === "bad_signature" ? "bad_signature" : "malformed";
}

/** The first key (in the order given) that verifies the input, or null. */
export function matchingKey(keys: HeldKey[], input: SignedInput): HeldKey | null {
  return keys.find((k) => failureWith(k.public_key, input) === null) ?? null;
}

export interface VerifyOutcome {
  reason: VerifyResult["reason"];
  key: { public_key: string; version: number } | null;
  currentVersion: number;
  documentHash: string | null;
  signedAt: Date | null;
}

export function toVerifyResult(
  signer: { entity_type: EntityType; entity_id: string },
  outcome: VerifyOutcome,
  now: Date,
): VerifyResult {
  return {
    valid: outcome.reason === null,
    signer_type: signer.entity_type,
    signer_id: signer.entity_id,
    document_hash: outcome.documentHash,
    public_key: outcome.key?.public_key ?? null,
    key_version: outcome.key?.version ?? null,
    key_is_current: outcome.key ? outcome.key.version === outcome.currentVersion : null,
    signed_at: outcome.signedAt?.toISOString() ?? null,
    reason: outcome.reason,
    verified_at: now.toISOString(),
  };
}
