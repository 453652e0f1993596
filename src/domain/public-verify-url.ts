import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * The public verify URL an owner shares (verificationservice.public_verify_url): built on the entity's opaque
 * external_id and signed by the server with HMAC-SHA256 under a key derived (HKDF-SHA256) from the deployment's
 * encryption key, so only URLs the server issued check out, and nothing in them is guessable from a counter.
 */

export type PublicVerifyKind = "individual" | "company";

const INFO = "freezone/public-verify-url/v1";

/** The URL-signing key: derived, so the encryption key itself never signs anything. */
export function publicVerifyKey(encryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", encryptionKey, Buffer.alloc(0), INFO, 32));
}

function mac(key: Buffer, kind: PublicVerifyKind, externalId: string): Buffer {
  return createHmac("sha256", key).update(`${kind}\n${externalId}`).digest();
}

/** `<base>/verify/<kind>/<external_id>?sig=<base64url HMAC>`; the same entity always gets the same URL. */
export function publicVerifyUrl(baseUrl: string, key: Buffer, kind: PublicVerifyKind, externalId: string): string {
  const sig = mac(key, kind, externalId).toString("base64url");
  return `${baseUrl}/verify/${kind}/${encodeURIComponent(externalId)}?sig=${sig}`;
}

/**
 * Whether `sig` is the server's signature of that kind and external id, exactly as the URL carries it (constant-time
 * comparison of the text: decoding first would let other spellings of the same bytes through, since base64url
 * decoding skips characters outside the alphabet and ignores the last character's spare bits).
 */
export function publicVerifySignatureValid(
  key: Buffer,
  kind: PublicVerifyKind,
  externalId: string,
  sig: string,
): boolean {
  const expected = Buffer.from(mac(key, kind, externalId).toString("base64url"));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
