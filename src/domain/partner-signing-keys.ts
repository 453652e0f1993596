import { parsePublicKey, parseSignature } from "./ed25519.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { canonicalPayload, payloadDigest, verifyRequestSignature } from "./request-signature.ts";

/**
 * A reseller partner's request-signing key (docs/decisions.md "Partner signing keys (issue 30)"): registered and
 * rotated by the partner with proof of possession, the current key signing its own replacement, every key kept in
 * the history and never taken back once retired.
 */

/** A key the partner held: its history row as the rules need it. */
export interface HeldKey {
  version: number;
  public_key: string;
  valid_to: Date | null;
}

/** The payload both signatures of a registration or rotation cover (RFC 8785 text; the version as a decimal). */
export function signingKeyPayload(partnerId: string, version: number, publicKey: string): string {
  return canonicalPayload(["freezone.partner_signing_key.v1", partnerId, String(version), publicKey]);
}

/** The version a new key gets: one past the newest the partner held (1 for the first). */
export function nextKeyVersion(history: readonly HeldKey[]): number {
  return history.reduce((max, k) => Math.max(max, k.version), 0) + 1;
}

export type KeyChange = "register" | "rotate";

export interface KeyChangeFacts {
  change: KeyChange;
  partnerId: string;
  isActive: boolean;
  currentKey: string | null;
  history: readonly HeldKey[];
  publicKey: string;
  proofSignature: string;
  /** Only for a rotation: the current key's signature over the same payload. */
  currentKeySignature?: string;
}

type KeyRefusal = Refusal<"InvalidInput" | "InvalidState" | "InvalidSignature">;

/** Whether a signature over `payload` verifies with `key`; a refusal naming `field` and the reason otherwise. */
function signatureRefusal(key: string, payload: string, signature: string, field: string): KeyRefusal | null {
  const verdict = verifyRequestSignature(key, payloadDigest(payload), signature);
  if (verdict === "valid") return null;
  return refuse("InvalidSignature", `${field} does not verify over the signing-key payload`, {
    field,
    reason: verdict,
  });
}

/**
 * Decides a registration or rotation: the new key's version, or why not. In order: the partner's state, the new key
 * (encoding, not the current one, never one held before), the signatures' encodings, then proof of possession and,
 * for a rotation, the current key's consent.
 */
export function decideKeyChange(f: KeyChangeFacts): { version: number } | KeyRefusal {
  if (!f.isActive) return refuse("InvalidState", "an inactive partner registers no signing key");
  if (f.change === "register" && f.currentKey !== null) {
    return refuse("InvalidState", "the partner has a signing key: rotate it with rotate_signing_key");
  }
  if (f.change === "rotate" && f.currentKey === null) {
    return refuse("InvalidState", "the partner has no signing key to rotate: register one with register_signing_key");
  }
  const key = parsePublicKey(f.publicKey);
  if (!(key instanceof Uint8Array)) return key;
  if (f.publicKey === f.currentKey) {
    return refuse("InvalidInput", "public_key is the current signing key", {
      field: "public_key",
      reason: "current_key",
    });
  }
  const held = f.history.find((k) => k.public_key === f.publicKey);
  if (held) {
    return refuse("InvalidInput", "public_key was retired and is never registered again", {
      field: "public_key",
      reason: "retired_key",
      version: held.version,
    });
  }
  const proof = parseSignature(f.proofSignature, "proof_signature");
  if (!(proof instanceof Uint8Array)) return proof;
  const consent = f.change === "rotate" ? parseSignature(f.currentKeySignature ?? "", "current_key_signature") : null;
  if (consent !== null && !(consent instanceof Uint8Array)) return consent;
  const version = nextKeyVersion(f.history);
  const payload = signingKeyPayload(f.partnerId, version, f.publicKey);
  const badProof = signatureRefusal(f.publicKey, payload, f.proofSignature, "proof_signature");
  if (badProof) return badProof;
  if (f.change === "rotate" && f.currentKey !== null) {
    const badConsent = signatureRefusal(f.currentKey, payload, f.currentKeySignature ?? "", "current_key_signature");
    if (badConsent) return badConsent;
  }
  return { version };
}

/** An administrator retires the current key only. */
export function retirementRefusal(currentKey: string | null): Refusal<"InvalidState"> | null {
  return currentKey === null ? refuse("InvalidState", "the partner has no signing key to retire") : null;
}
