import { expect, test } from "vitest";
import { type RecoveryFacts, recoveryTransition, visibleRecoveryStatus } from "../../src/domain/mfa-recovery.ts";

const facts = (changes: Partial<RecoveryFacts> = {}): RecoveryFacts => ({
  status: "pending",
  expired: false,
  verdict: "approved",
  matchedIdentity: "kyc-1",
  knownIdentity: "kyc-1",
  ...changes,
});

test("only an approval of the very identity verified at KYC approves", () => {
  expect(recoveryTransition(facts())).toBe("approved");
  expect(recoveryTransition(facts({ matchedIdentity: "kyc-2" }))).toBe("rejected");
  expect(recoveryTransition(facts({ matchedIdentity: null }))).toBe("rejected");
  expect(recoveryTransition(facts({ knownIdentity: null, matchedIdentity: null }))).toBe("rejected");
});

test("denied, suspected and expired verdicts reject; pending changes nothing", () => {
  for (const verdict of ["denied", "suspected", "expired"] as const) {
    expect(recoveryTransition(facts({ verdict }))).toBe("rejected");
  }
  expect(recoveryTransition(facts({ verdict: "pending" }))).toBeNull();
});

test("a finished or expired session does not move on a verdict", () => {
  for (const status of ["approved", "rejected", "expired"] as const) {
    expect(recoveryTransition(facts({ status }))).toBeNull();
  }
  expect(recoveryTransition(facts({ expired: true }))).toBe("expired");
  expect(visibleRecoveryStatus("pending", true)).toBe("expired");
  expect(visibleRecoveryStatus("approved", true)).toBe("approved");
});
