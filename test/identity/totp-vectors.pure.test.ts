import { describe, expect, test } from "vitest";
import {
  formatBackupCode,
  isTotpShaped,
  matchTotp,
  newTotpSecret,
  normalizeBackupCode,
  otpauthUri,
  timeStep,
  totpCode,
} from "../../src/domain/totp.ts";

// RFC 6238 Appendix B: ASCII seeds of 20, 32 and 64 bytes, 8 digits, 30-second steps.
const SEEDS = {
  sha1: "12345678901234567890",
  sha256: "12345678901234567890123456789012",
  sha512: "1234567890123456789012345678901234567890123456789012345678901234",
} as const;
const VECTORS: [number, string, string, string][] = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

describe("RFC 6238 test vectors", () => {
  for (const [time, sha1, sha256, sha512] of VECTORS) {
    test(`T=${time}: SHA-1 ${sha1}, SHA-256 ${sha256}, SHA-512 ${sha512}`, () => {
      const bytes = (s: string) => new TextEncoder().encode(s);
      expect(totpCode(bytes(SEEDS.sha1), time, { algorithm: "sha1", digits: 8 })).toBe(sha1);
      expect(totpCode(bytes(SEEDS.sha256), time, { algorithm: "sha256", digits: 8 })).toBe(sha256);
      expect(totpCode(bytes(SEEDS.sha512), time, { algorithm: "sha512", digits: 8 })).toBe(sha512);
    });
  }
});

describe("matching a TOTP code", () => {
  const secret = newTotpSecret();
  const now = 1_800_000_015;

  test("the current code and the codes one step either side match, with their step", () => {
    for (const offset of [-30, 0, 30]) {
      expect(matchTotp(secret, totpCode(secret, now + offset), now, null)).toBe(timeStep(now + offset));
    }
  });

  test("codes two steps away do not match", () => {
    expect(matchTotp(secret, totpCode(secret, now - 60), now, null)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 60), now, null)).toBeNull();
  });

  test("a code of an accepted step, or an earlier one, is refused (no replay)", () => {
    const step = timeStep(now);
    expect(matchTotp(secret, totpCode(secret, now), now, step)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now - 30), now, step)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 30), now, step)).toBe(step + 1);
  });

  test("anything but six digits never matches", () => {
    expect(matchTotp(secret, "12345", now, null)).toBeNull();
    expect(matchTotp(secret, "abcdef", now, null)).toBeNull();
    expect(matchTotp(secret, `${totpCode(secret, now)}0`, now, null)).toBeNull();
  });

  test("secrets are 160-bit base32 and the provisioning URI names issuer, account and parameters", () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = otpauthUri(secret, "ada@example.org", "Freezone");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Freezone:ada%40example\.org\?/);
    expect(uri).toContain(`secret=${secret}`);
  });

  test("backup codes are normalized for comparison and shown in two groups", () => {
    expect(normalizeBackupCode(" ABCDE-fghjk ")).toBe("abcdefghjk");
    expect(formatBackupCode("abcdefghjk")).toBe("abcde-fghjk");
    expect(isTotpShaped(" 123456 ")).toBe(true);
    expect(isTotpShaped("abcde-fghjk")).toBe(false);
  });
});
