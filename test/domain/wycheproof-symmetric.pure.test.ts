import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { openSealedBytes, openSecret, sealSecret } from "../../src/auth/secret-box.ts";
import { safeEqual } from "../../src/auth/tokens.ts";
import { hmacSha256Hex } from "../../src/auth/webhook-signature.ts";

/**
 * Project Wycheproof vectors (test/vectors/wycheproof, Apache 2.0) against the two symmetric primitives the server
 * relies on: the secret box (AES-256-GCM, 12-byte nonce, 16-byte tag, no associated data: src/auth/secret-box.ts)
 * and the webhook MAC (HMAC-SHA256, full tag: src/auth/webhook-signature.ts). Cases outside what the server uses
 * (other key sizes, associated data) are counted, not dropped silently.
 */

interface Case {
  tcId: number;
  comment: string;
  flags: string[];
  result: "valid" | "invalid" | "acceptable";
  key: string;
  msg: string;
  tag: string;
  iv?: string;
  aad?: string;
  ct?: string;
}
interface Group {
  keySize: number;
  ivSize?: number;
  tagSize: number;
  tests: Omit<Case, never>[];
}
interface VectorFile {
  numberOfTests: number;
  testGroups: Group[];
}

const load = (name: string) =>
  JSON.parse(readFileSync(new URL(`../vectors/wycheproof/${name}`, import.meta.url), "utf8")) as VectorFile;
const hex = (s: string) => Buffer.from(s, "hex");
const all = (f: VectorFile) => f.testGroups.flatMap((g) => g.tests.map((t) => ({ ...t, group: g })));

describe("Wycheproof aes_gcm_test.json against the secret box", () => {
  const file = load("aes_gcm_test.json");
  const cases = all(file);
  const boxed = cases.filter((c) => c.group.keySize === 256 && c.group.tagSize === 128 && c.aad === "");
  const sealedShape = boxed.filter((c) => c.group.ivSize === 96);

  test("every case is read; the secret box's shape (256-bit key, 96-bit nonce, 128-bit tag, no AAD) has cases", () => {
    expect(cases).toHaveLength(file.numberOfTests);
    expect(sealedShape.length).toBeGreaterThan(30);
    expect(sealedShape.some((c) => c.result === "invalid")).toBe(true);
  });

  test.each(sealedShape)("tcId $tcId ($result): $comment", (c) => {
    const open = () => openSealedBytes(hex(c.key), hex(c.iv!), Buffer.concat([hex(c.ct!), hex(c.tag)]));
    if (c.result === "valid") expect(open().toString("hex")).toBe(c.msg);
    else expect(open).toThrow();
  });

  test("a nonce of any other length is refused, even where GCM itself would accept it", () => {
    const other = boxed.filter((c) => c.group.ivSize !== 96 && c.result === "valid");
    expect(other.length).toBeGreaterThan(5);
    for (const c of other) {
      expect(() => openSealedBytes(hex(c.key), hex(c.iv!), Buffer.concat([hex(c.ct!), hex(c.tag)]))).toThrow(/nonce/);
    }
  });

  test("a key of another size is refused", () => {
    const c = cases.find((x) => x.group.keySize === 128 && x.group.ivSize === 96 && x.result === "valid")!;
    expect(() => openSealedBytes(hex(c.key), hex(c.iv!), Buffer.concat([hex(c.ct!), hex(c.tag)]))).toThrow(/32 bytes/);
  });

  test("sealSecret and openSecret round-trip, and one flipped bit anywhere is refused", () => {
    const key = hex(sealedShape[0]!.key);
    const sealed = sealSecret(key, "JBSWY3DPEHPK3PXP");
    expect(openSecret(key, sealed)).toBe("JBSWY3DPEHPK3PXP");
    const body = sealed.split(":")[2]!;
    for (let i = 0; i < body.length; i += 7) {
      const flipped = body.slice(0, i) + (Number.parseInt(body[i]!, 16) ^ 1).toString(16) + body.slice(i + 1);
      expect(() => openSecret(key, sealed.replace(body, flipped))).toThrow();
    }
  });
});

describe("Wycheproof hmac_sha256_test.json against the webhook MAC", () => {
  const file = load("hmac_sha256_test.json");
  const cases = all(file);
  const full = cases.filter((c) => c.group.tagSize === 256);

  test("every case is read; full-tag cases of every key size are run", () => {
    expect(cases).toHaveLength(file.numberOfTests);
    expect(new Set(full.map((c) => c.group.keySize))).toEqual(new Set([128, 256, 520]));
  });

  test.each(full)("tcId $tcId ($result, key $group.keySize bits): $comment", (c) => {
    const mac = hmacSha256Hex(hex(c.key), hex(c.msg));
    expect(safeEqual(mac, c.tag)).toBe(c.result === "valid");
  });

  test("a truncated tag (the 128-bit cases) never verifies, even where it is a valid truncation", () => {
    const truncated = cases.filter((c) => c.group.tagSize === 128 && c.result === "valid");
    expect(truncated.length).toBeGreaterThan(30);
    for (const c of truncated) expect(safeEqual(hmacSha256Hex(hex(c.key), hex(c.msg)), c.tag)).toBe(false);
  });
});
