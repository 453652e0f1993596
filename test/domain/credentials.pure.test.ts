import { expect, test } from "vitest";
import { oneTimeTokenRefusal, refreshRefusal, sessionRefusal } from "../../src/domain/credentials.ts";
import { brokenPasswordRule } from "../../src/domain/password-rules.ts";

const now = new Date("2026-01-01T12:00:00Z");
const later = new Date(now.getTime() + 1000);

test("a one-time token is usable until used or expired; used wins over expired", () => {
  expect(oneTimeTokenRefusal({ used: false, expiresAt: later }, now)).toBeNull();
  expect(oneTimeTokenRefusal({ used: true, expiresAt: later }, now)).toBe("AlreadyUsed");
  expect(oneTimeTokenRefusal({ used: false, expiresAt: now }, now)).toBe("Expired");
  expect(oneTimeTokenRefusal({ used: true, expiresAt: now }, now)).toBe("AlreadyUsed");
});

test("a session is refused revoked, then expired, then suspended", () => {
  const live = { revokedAt: null, expiresAt: later, suspended: false };
  expect(sessionRefusal(live, now)).toBeNull();
  expect(sessionRefusal({ ...live, expiresAt: now }, now)).toBe("Expired");
  expect(sessionRefusal({ ...live, suspended: true }, now)).toBe("Suspended");
  expect(sessionRefusal({ revokedAt: now, expiresAt: now, suspended: true }, now)).toBe("Revoked");
});

test("a rotated refresh token is a reuse before anything else", () => {
  const live = { replacedBy: null, revokedAt: null, refreshExpiresAt: later, suspended: false };
  expect(refreshRefusal(live, now)).toBeNull();
  expect(refreshRefusal({ ...live, replacedBy: "s2", revokedAt: now, refreshExpiresAt: now }, now)).toBe("Reused");
  expect(refreshRefusal({ ...live, revokedAt: now }, now)).toBe("Ended");
  expect(refreshRefusal({ ...live, refreshExpiresAt: now }, now)).toBe("Expired");
  expect(refreshRefusal({ ...live, suspended: true }, now)).toBe("Suspended");
});

test("password rules: length, not the email (any case), not common", () => {
  expect(brokenPasswordRule("correct horse battery", "ada@example.org")).toBeNull();
  expect(brokenPasswordRule("short", "ada@example.org")).toBe("must have at least 8 characters");
  expect(brokenPasswordRule("x".repeat(129), "ada@example.org")).toBe("must have at most 128 characters");
  expect(brokenPasswordRule("ADA@example.org", "ada@example.org")).toBe("must not equal the email");
  expect(brokenPasswordRule("Password1", "ada@example.org")).toBe("is too common");
});
