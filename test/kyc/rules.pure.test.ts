import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { KycStatus } from "../../generated/types.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import {
  callbackUrlRefusal,
  fieldsToCapture,
  kycExpired,
  personalDataRefusal,
  startRefusal,
  verdictTransition,
  visibleKycStatus,
} from "../../src/domain/kyc.ts";
import {
  artifactKey,
  artifactPayloadHash,
  openArtifact,
  parseArtifactPayload,
  sealArtifact,
} from "../../src/domain/kyc-artifacts.ts";
import { isRefusal } from "../../src/domain/refusal.ts";
import { ownsResident } from "../../src/domain/resident-access.ts";
import { sandboxKycOutcome } from "../../src/integrations/identity/sandbox-kyc.ts";

// The pure KYC rules of src/domain/kyc.ts and kyc-artifacts.ts, without a database.

describe("verdictTransition", () => {
  const move = (status: KycStatus, verdict: Parameters<typeof verdictTransition>[0]["verdict"], more = {}) =>
    verdictTransition({ status, verdict, expired: false, manualReview: true, ...more });

  test("an open session follows the verdict", () => {
    expect(move("pending", "approved")).toBe("completed");
    expect(move("in_progress", "approved")).toBe("completed");
    expect(move("pending", "denied")).toBe("failed");
    expect(move("pending", "suspected")).toBe("needs_review");
    expect(move("pending", "suspected", { manualReview: false })).toBe("failed");
    expect(move("pending", "pending")).toBe("in_progress");
    expect(move("in_progress", "pending")).toBeNull();
    expect(move("pending", "expired")).toBe("expired");
  });

  test("a session past its deadline expires whatever the verdict", () => {
    for (const v of ["approved", "denied", "suspected", "pending", "expired"] as const) {
      expect(move("pending", v, { expired: true })).toBe("expired");
    }
  });

  test("decided or held sessions never move on a verdict", () => {
    for (const status of ["completed", "failed", "expired", "needs_review"] as const) {
      expect(move(status, "approved")).toBeNull();
    }
  });
});

describe("expiry", () => {
  const expiresAt = new Date("2026-11-24T10:00:00.000Z");
  test("an open session expires at the deadline instant, not a millisecond before", () => {
    expect(kycExpired({ status: "pending", expires_at: expiresAt }, new Date(expiresAt.getTime() - 1))).toBe(false);
    expect(kycExpired({ status: "pending", expires_at: expiresAt }, expiresAt)).toBe(true);
    expect(visibleKycStatus({ status: "in_progress", expires_at: expiresAt }, expiresAt)).toBe("expired");
  });
  test("held and decided sessions never expire", () => {
    const later = new Date(expiresAt.getTime() + 1e9);
    for (const status of ["needs_review", "completed", "failed"] as const) {
      expect(visibleKycStatus({ status, expires_at: expiresAt }, later)).toBe(status);
    }
  });
});

describe("ownsResident", () => {
  const person = { userId: "u1", partnerId: null };
  const partner = { userId: "wallet-p1", partnerId: "p1" };
  test("the pair decides", () => {
    expect(ownsResident(person, { user_id: "u1", partner_id: null })).toBe(true);
    expect(ownsResident(person, { user_id: "u2", partner_id: null })).toBe(false);
    expect(ownsResident(person, { user_id: "u1", partner_id: "p1" })).toBe(false);
    expect(ownsResident(partner, { user_id: null, partner_id: "p1" })).toBe(true);
    expect(ownsResident(partner, { user_id: null, partner_id: "p2" })).toBe(false);
    expect(ownsResident(partner, { user_id: "u1", partner_id: "p1" })).toBe(false);
    // Two absent user ids never match: a personal caller never owns a user-less resident.
    expect(ownsResident(person, { user_id: null, partner_id: null })).toBe(false);
  });
});

describe("inputs", () => {
  test("callback URLs: https only, no credentials, at most 2048 characters", () => {
    expect(callbackUrlRefusal(undefined)).toBeNull();
    expect(callbackUrlRefusal("https://a.example/x?y=1")).toBeNull();
    expect(callbackUrlRefusal(`https://a.example/${"a".repeat(2048 - 18)}`)).toBeNull();
    expect(callbackUrlRefusal(`https://a.example/${"a".repeat(2048 - 17)}`)).not.toBeNull();
    expect(callbackUrlRefusal("javascript:alert(1)")).not.toBeNull();
  });

  test("start refusals: verified first, then held, then status", () => {
    expect(startRefusal({ residentStatus: "pending", verified: false, heldForReview: false })).toBeNull();
    expect(startRefusal({ residentStatus: "active", verified: true, heldForReview: true })?.message).toMatch(
      /verified/,
    );
    expect(startRefusal({ residentStatus: "active", verified: false, heldForReview: true })?.message).toMatch(/review/);
  });

  test("personal data formats; 200 characters is the longest value", () => {
    expect(personalDataRefusal({ dob: "2000-02-29", nationality: "TZA", document_number: "x".repeat(200) })).toBeNull();
    expect(personalDataRefusal({ dob: "2001-02-29" })).not.toBeNull();
    expect(personalDataRefusal({ nationality: "T" })).not.toBeNull();
    expect(personalDataRefusal({ document_number: "x".repeat(201) })).not.toBeNull();
    expect(personalDataRefusal(null)).toBeNull();
  });

  test("fields to capture: feature, toggles, absent and empty fields", () => {
    const data = { dob: "1990-01-01", nationality: "", document_type: "passport" };
    expect(fieldsToCapture(data, { enabled: false, fields: ["dob"] })).toBeNull();
    expect(fieldsToCapture(data, { enabled: true, fields: ["dob", "nationality"] })).toEqual({ dob: "1990-01-01" });
    expect(fieldsToCapture(data, { enabled: true, fields: ["document_number"] })).toBeNull();
  });

  test("sandbox markers", () => {
    expect(sandboxKycOutcome("Ada", "Lovelace")).toBe("approved");
    expect(sandboxKycOutcome("Ada", "x Sandbox-Denied y")).toBe("denied");
    expect(sandboxKycOutcome("sandbox-unavailable", "sandbox-denied")).toBe("unavailable");
  });
});

describe("artifact crypto", () => {
  const deployment = Buffer.alloc(32, 1);
  test("the artifact key is per partner and key id, from the deployment key", () => {
    const k = artifactKey(deployment, "p1", "k1");
    expect(k).toHaveLength(32);
    expect(artifactKey(deployment, "p1", "k1")).toEqual(k);
    expect(artifactKey(deployment, "p1", "k2")).not.toEqual(k);
    expect(artifactKey(deployment, "p2", "k1")).not.toEqual(k);
    expect(artifactKey(Buffer.alloc(32, 2), "p1", "k1")).not.toEqual(k);
  });

  test("sealed payloads open under their key only; the hash covers nonce and ciphertext", () => {
    const key = artifactKey(deployment, "p1", "k1");
    const text = sealArtifact(key, "hello", Buffer.alloc(12, 3));
    const parsed = parseArtifactPayload(text);
    if (isRefusal(parsed)) throw new Error(parsed.message);
    expect(openArtifact(key, parsed)).toBe("hello");
    expect(openArtifact(artifactKey(deployment, "p1", "k2"), parsed)).toBeNull();
    expect(artifactPayloadHash(parsed)).toBe(
      createHash("sha256")
        .update(Buffer.from(text.replace(":", ""), "hex"))
        .digest("hex"),
    );
  });
});

describe("configuration", () => {
  test("defaults: 24-hour sessions, manual review on, personal data off with every field", () => {
    expect(loadConfig({}).kyc).toEqual({
      sessionTtlS: 86400,
      manualReview: true,
      personalData: {
        enabled: false,
        fields: ["dob", "nationality", "document_number", "document_type", "document_expiry"],
      },
    });
  });

  test("the variables are read and checked", () => {
    const kyc = loadConfig({
      KYC_SESSION_TTL_S: "900",
      KYC_MANUAL_REVIEW: "0",
      KYC_PERSONAL_DATA: "1",
      KYC_PERSONAL_DATA_FIELDS: "dob, nationality",
    }).kyc;
    expect(kyc).toEqual({
      sessionTtlS: 900,
      manualReview: false,
      personalData: { enabled: true, fields: ["dob", "nationality"] },
    });
    expect(() => loadConfig({ KYC_PERSONAL_DATA_FIELDS: "dob,shoe_size" })).toThrow(ConfigError);
    expect(() => loadConfig({ KYC_MANUAL_REVIEW: "yes" })).toThrow(/KYC_MANUAL_REVIEW/);
    expect(() => loadConfig({ KYC_SESSION_TTL_S: "59" })).toThrow(/KYC_SESSION_TTL_S/);
  });
});
