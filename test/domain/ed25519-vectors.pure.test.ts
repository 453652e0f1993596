import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  GROUP_ORDER,
  parseDocumentHash,
  parsePublicKey,
  parseSignature,
  publicKeyOfSeed,
  verifyEd25519,
} from "../../src/domain/ed25519.ts";
import { isRefusal } from "../../src/domain/refusal.ts";

/**
 * The project's one Ed25519 verification (src/domain/ed25519.ts) against public vectors: RFC 8032 section 7.1 and
 * every case of Project Wycheproof's ed25519_test.json (valid accepted, invalid refused, none left out).
 */

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, "hex"));

/** RFC 8032 section 7.1: TEST 1, 2, 3 and TEST SHA(abc) (the message is SHA-512 of "abc"). */
const RFC8032 = [
  {
    name: "TEST 1 (empty message)",
    secret: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    message: "",
    signature:
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  },
  {
    name: "TEST 2 (one byte)",
    secret: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
    public: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    message: "72",
    signature:
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
  },
  {
    name: "TEST 3 (two bytes)",
    secret: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
    public: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
    message: "af82",
    signature:
      "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
  },
  {
    name: "TEST SHA(abc)",
    secret: "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
    public: "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
    message: createHash("sha512").update("abc").digest("hex"),
    signature:
      "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704",
  },
];

describe("RFC 8032 section 7.1", () => {
  test.each(RFC8032)("$name: the signature verifies and the key is the seed's", (v) => {
    expect(Buffer.from(publicKeyOfSeed(hex(v.secret))).toString("hex")).toBe(v.public);
    expect(verifyEd25519(hex(v.public), hex(v.message), hex(v.signature))).toEqual({ valid: true });
  });

  test.each(RFC8032)("$name: a flipped message bit is refused", (v) => {
    const message = v.message === "" ? Uint8Array.of(1) : hex(v.message);
    if (v.message !== "") message[0] = (message[0] ?? 0) ^ 1;
    expect(verifyEd25519(hex(v.public), message, hex(v.signature))).toEqual({ valid: false, reason: "bad_signature" });
  });

  test.each(RFC8032)("$name: S + L (the malleable twin) is refused as non-canonical", (v) => {
    const sig = hex(v.signature);
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i] ?? 0);
    let twin = s + GROUP_ORDER;
    for (let i = 32; i < 64; i++) {
      sig[i] = Number(twin & 0xffn);
      twin >>= 8n;
    }
    expect(verifyEd25519(hex(v.public), hex(v.message), sig)).toEqual({
      valid: false,
      reason: "non_canonical_signature",
    });
  });
});

interface WycheproofTest {
  tcId: number;
  comment: string;
  flags: string[];
  msg: string;
  sig: string;
  result: "valid" | "invalid" | "acceptable";
}
interface WycheproofFile {
  numberOfTests: number;
  testGroups: { publicKey: { pk: string }; tests: WycheproofTest[] }[];
}

const wycheproof = JSON.parse(
  readFileSync(new URL("../vectors/wycheproof/ed25519_test.json", import.meta.url), "utf8"),
) as WycheproofFile;
const cases = wycheproof.testGroups.flatMap((g) => g.tests.map((t) => ({ ...t, pk: g.publicKey.pk })));

describe("Wycheproof ed25519_test.json", () => {
  test("every case of the file is run (151), and none is merely acceptable", () => {
    expect(cases).toHaveLength(wycheproof.numberOfTests);
    expect(cases).toHaveLength(151);
    expect(cases.filter((c) => c.result === "acceptable")).toEqual([]);
  });

  test.each(cases)("tcId $tcId ($result, $flags): $comment", (c) => {
    const verdict = verifyEd25519(hex(c.pk), hex(c.msg), hex(c.sig));
    expect(verdict.valid).toBe(c.result === "valid");
  });
});

describe("params as the wire carries them", () => {
  const v = RFC8032[0]!;
  test("a public key is 64 lowercase hex characters", () => {
    expect(parsePublicKey(v.public)).toBeInstanceOf(Uint8Array);
    for (const bad of [v.public.toUpperCase(), v.public.slice(2), `${v.public}00`, `${v.public.slice(2)}zz`, ""]) {
      expect(parsePublicKey(bad)).toMatchObject({ refusal: "InvalidInput", details: { field: "public_key" } });
    }
  });

  test("small-order keys (the identity, a point of order 2, 4 or 8) are refused", () => {
    const smallOrder = [
      "0100000000000000000000000000000000000000000000000000000000000000", // identity
      "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
      "0000000000000000000000000000000000000000000000000000000000000000", // order 4
      "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
    ];
    for (const key of smallOrder) {
      expect(parsePublicKey(key)).toMatchObject({
        refusal: "InvalidInput",
        details: { reason: "small_order_public_key" },
      });
    }
  });

  test("a non-canonical key encoding (y >= p) is refused", () => {
    const yIsP = "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f";
    expect(parsePublicKey(yIsP)).toMatchObject({
      refusal: "InvalidInput",
      details: { reason: "malformed_public_key" },
    });
  });

  test("a signature is 128 lowercase hex characters with S below the group order", () => {
    expect(parseSignature(v.signature)).toBeInstanceOf(Uint8Array);
    expect(parseSignature(v.signature.slice(0, 126))).toMatchObject({ refusal: "InvalidInput" });
    expect(parseSignature(v.signature.toUpperCase())).toMatchObject({ refusal: "InvalidInput" });
    const maxS = `${v.signature.slice(0, 64)}${"ff".repeat(32)}`;
    expect(parseSignature(maxS)).toMatchObject({ details: { reason: "non_canonical_signature" } });
  });

  test("a document hash is 64 lowercase hex characters (32 bytes)", () => {
    const h = createHash("sha256").update("x").digest("hex");
    expect(parseDocumentHash(h)).toHaveLength(32);
    expect(isRefusal(parseDocumentHash(h.slice(1)))).toBe(true);
    expect(isRefusal(parseDocumentHash(h.toUpperCase()))).toBe(true);
  });
});
