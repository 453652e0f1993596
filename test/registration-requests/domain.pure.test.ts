import { createHash } from "node:crypto";
import * as ed from "@noble/ed25519";
import { describe, expect, test } from "vitest";
import { hardGateRefusal, kybFields, nextKybStatus, recordsVerdict } from "../../src/domain/kyb.ts";
import {
  duplicateProxyRefusal,
  isProxyEffective,
  proxyShapeRefusal,
  windowsOverlap,
} from "../../src/domain/proxies.ts";
import {
  approvalPayload,
  clientName,
  nextStatus,
  type PrerequisiteFacts,
  prerequisiteChecks,
  resellerPayload,
  splitName,
} from "../../src/domain/registration-requests.ts";
import { payloadDigest, verifyRequestSignature } from "../../src/domain/request-signature.ts";

ed.hashes.sha512 ??= (m) => new Uint8Array(createHash("sha512").update(m).digest());

const at = (iso: string) => new Date(iso);
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("proxy effectiveness (one rule)", () => {
  const from = at("2026-11-23T10:00:00.000Z");
  const to = at("2026-11-23T11:00:00.000Z");
  const proxy = { status: "active" as const, valid_from: from, valid_to: to };

  test("valid_from is inclusive and valid_to exclusive, to the millisecond", () => {
    expect(isProxyEffective(proxy, at("2026-11-23T09:59:59.999Z"))).toBe(false);
    expect(isProxyEffective(proxy, from)).toBe(true);
    expect(isProxyEffective(proxy, at("2026-11-23T10:59:59.999Z"))).toBe(true);
    expect(isProxyEffective(proxy, to)).toBe(false);
  });

  test("an open end never expires; a revoked proxy is never effective", () => {
    expect(isProxyEffective({ ...proxy, valid_to: null }, at("2126-01-01T00:00:00.000Z"))).toBe(true);
    expect(isProxyEffective({ ...proxy, status: "revoked" }, from)).toBe(false);
  });

  test("shape: two residents, an end after the start", () => {
    expect(proxyShapeRefusal("A", "A", from, null)?.refusal).toBe("InvalidInput");
    expect(proxyShapeRefusal("A", "B", from, from)?.refusal).toBe("InvalidInput");
    expect(proxyShapeRefusal("A", "B", from, at("2026-11-23T10:00:00.001Z"))).toBeNull();
    expect(proxyShapeRefusal("A", "B", from, null)).toBeNull();
  });

  test("half-open windows overlap only when they share an instant; only active ones clash", () => {
    const a = { valid_from: from, valid_to: to };
    expect(windowsOverlap(a, { valid_from: to, valid_to: null })).toBe(false);
    expect(windowsOverlap(a, { valid_from: at("2026-11-23T10:59:59.999Z"), valid_to: null })).toBe(true);
    expect(
      windowsOverlap({ valid_from: from, valid_to: null }, { valid_from: at("2030-01-01T00:00:00Z"), valid_to: null }),
    ).toBe(true);
    const existing = [{ sid: "p1", status: "revoked" as const, valid_from: from, valid_to: null }];
    expect(duplicateProxyRefusal(a, existing)).toBeNull();
    expect(duplicateProxyRefusal(a, [{ ...existing[0]!, status: "active" }])?.details).toEqual({ proxy_id: "p1" });
  });
});

describe("registration request rules", () => {
  test("the reseller payload is the JCS text of the tagged field array", () => {
    const payload = resellerPayload({
      reseller_id: "p1",
      request_type: "resident",
      client_email: "ada@example.org",
      client_name: 'Ada "the first" Lovelace',
      kyc_session_id: null,
      payment_id: "pay",
      signed_contract_ids: ["s1", "s2"],
    });
    expect(payload).toBe(
      '["freezone.registration_request.v1","p1","resident","ada@example.org","Ada \\"the first\\" Lovelace",null,"pay",["s1","s2"]]',
    );
    const approval = approvalPayload(
      "r1",
      {
        reseller_id: "p1",
        request_type: "company",
        client_email: "a@b.co",
        client_name: "A",
        kyc_session_id: null,
        payment_id: null,
        signed_contract_ids: [],
      },
      "sig",
      " Admin@Example.org ",
    );
    expect(approval).toBe(
      '["freezone.registration_request.approve.v1","r1","p1","company","a@b.co","A",null,null,[],"sig","admin@example.org"]',
    );
  });

  test("names: trimmed, not blank, no control characters; split into first word and the rest", () => {
    expect(clientName("  Ada Lovelace ")).toBe("Ada Lovelace");
    expect(clientName(" ")).toMatchObject({ refusal: "InvalidInput" });
    expect(clientName("Ada\nLovelace")).toMatchObject({ refusal: "InvalidInput" });
    expect(splitName("Ada  Augusta King")).toEqual({ first_name: "Ada", last_name: "Augusta King" });
    expect(splitName("Cher")).toEqual({ first_name: "Cher", last_name: "" });
  });

  test("the state table", () => {
    const moves = ["start_review", "ask_info", "partner_update", "approve", "reject"] as const;
    const expected = {
      pending: ["under_review", "needs_info", "pending", "approved", "rejected"],
      under_review: [null, "needs_info", null, "approved", "rejected"],
      needs_info: [null, "needs_info", "pending", "approved", "rejected"],
      approved: [null, null, null, null, null],
      rejected: [null, null, null, null, null],
    } as const;
    for (const [from, row] of Object.entries(expected)) {
      moves.forEach((move, i) => {
        const next = nextStatus(from as keyof typeof expected, move);
        if (row[i] === null) expect(next).toMatchObject({ refusal: "InvalidState", details: { status: from } });
        else expect(next).toBe(row[i]);
      });
    }
  });

  const facts = (changes: Partial<PrerequisiteFacts> = {}): PrerequisiteFacts => ({
    requestType: "resident",
    kycStatus: "completed",
    liveKycArtifacts: 0,
    paymentStatus: "confirmed",
    unknownSignatures: [],
    requiredContracts: ["c1"],
    signedContracts: ["c1"],
    emailInUse: false,
    partnerActive: true,
    partnerMayCreateCompanies: false,
    signaturePresent: true,
    ...changes,
  });
  const failed = (f: PrerequisiteFacts) => prerequisiteChecks(f).filter((c) => !c.passed);

  test("prerequisites: all pass for a complete resident request; company requests add company creation", () => {
    expect(failed(facts())).toEqual([]);
    expect(prerequisiteChecks(facts()).map((c) => c.name)).not.toContain("company_creation_allowed");
    expect(failed(facts({ requestType: "company" }))).toEqual([
      { name: "company_creation_allowed", passed: false, detail: "the partner may not create companies" },
    ]);
  });

  test("prerequisites: each fact fails its check", () => {
    expect(failed(facts({ kycStatus: "missing" }))[0]).toMatchObject({
      name: "kyc_complete",
      detail: "the linked KYC session does not exist",
    });
    expect(failed(facts({ kycStatus: "in_progress" }))[0]?.detail).toBe(
      "the KYC session is in_progress, not completed",
    );
    expect(failed(facts({ kycStatus: null }))[0]).toMatchObject({
      name: "kyc_complete",
      detail: "no KYC session linked and no KYC artifact attached",
    });
    expect(failed(facts({ paymentStatus: null }))[0]).toMatchObject({ name: "payment_confirmed" });
    expect(failed(facts({ unknownSignatures: ["x"] }))[0]).toMatchObject({
      name: "contracts_signed",
      detail: "unknown signatures: x",
    });
    expect(failed(facts({ signedContracts: [] }))[0]).toMatchObject({ name: "contracts_signed" });
    expect(failed(facts({ requiredContracts: [], signedContracts: [] }))).toEqual([]);
    expect(failed(facts({ emailInUse: true }))[0]).toMatchObject({ name: "client_email_available" });
    expect(failed(facts({ partnerActive: false }))[0]).toMatchObject({ name: "partner_active" });
    expect(failed(facts({ signaturePresent: false }))[0]).toMatchObject({ name: "reseller_signature_present" });
  });

  test("prerequisites: the partner's KYC artifacts stand for KYC only when no session is linked", () => {
    expect(failed(facts({ kycStatus: null, liveKycArtifacts: 1 }))).toEqual([]);
    expect(failed(facts({ kycStatus: "failed", liveKycArtifacts: 2 }))[0]).toMatchObject({
      name: "kyc_complete",
      detail: "the KYC session is failed, not completed",
    });
    expect(failed(facts({ kycStatus: null, liveKycArtifacts: 0 }))[0]).toMatchObject({ name: "kyc_complete" });
  });
});

describe("strict request signatures", () => {
  const secret = ed.utils.randomSecretKey();
  const publicKey = hex(ed.getPublicKey(secret));
  const message = payloadDigest('["x"]');
  const signature = ed.sign(message, secret);

  test("a valid signature verifies; another message or key does not", () => {
    expect(verifyRequestSignature(publicKey, message, hex(signature))).toBe("valid");
    expect(verifyRequestSignature(publicKey, payloadDigest('["y"]'), hex(signature))).toBe("bad_signature");
    const other = hex(ed.getPublicKey(ed.utils.randomSecretKey()));
    expect(verifyRequestSignature(other, message, hex(signature))).toBe("bad_signature");
  });

  test("malformed hex is refused before any arithmetic", () => {
    expect(verifyRequestSignature(publicKey.toUpperCase(), message, hex(signature))).toBe("malformed_public_key");
    expect(verifyRequestSignature(publicKey.slice(2), message, hex(signature))).toBe("malformed_public_key");
    expect(verifyRequestSignature(publicKey, message, hex(signature).toUpperCase())).toBe("malformed_signature");
    expect(verifyRequestSignature(publicKey, message, `${hex(signature)}00`)).toBe("malformed_signature");
  });

  test("a malleable S (S + L) and a small-order key are refused", () => {
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(signature[i] ?? 0);
    const bumped = s + L;
    const malleable = Uint8Array.from(signature);
    for (let i = 0; i < 32; i++) malleable[32 + i] = Number((bumped >> BigInt(8 * i)) & 0xffn);
    expect(bumped < 2n ** 256n).toBe(true);
    expect(verifyRequestSignature(publicKey, message, hex(malleable))).toBe("non_canonical_signature");
    // The identity point (small order): with R = identity and S = 0 the cofactored equation holds for any message.
    const identity = `01${"00".repeat(31)}`;
    expect(verifyRequestSignature(identity, message, `${identity}${"00".repeat(32)}`)).toBe("small_order_public_key");
  });

  test("a signature over the payload text instead of its SHA-256 is refused", () => {
    const overText = ed.sign(new TextEncoder().encode('["x"]'), secret);
    expect(verifyRequestSignature(publicKey, message, hex(overText))).toBe("bad_signature");
  });
});

describe("KYB rules", () => {
  test("fields are trimmed (jurisdiction upper-cased) and none may be blank", () => {
    expect(
      kybFields({ legal_name: " Acme Ltd ", jurisdiction: " gb ", registration_number: " 0123 ", documents: [" a "] }),
    ).toEqual({
      legal_name: "Acme Ltd",
      jurisdiction: "GB",
      registration_number: "0123",
      documents: ["a"],
    });
    expect(
      kybFields({ legal_name: " ", jurisdiction: "GB", registration_number: "1", documents: ["a"] }),
    ).toMatchObject({
      refusal: "InvalidInput",
      details: { field: "legal_name" },
    });
    expect(
      kybFields({ legal_name: "A", jurisdiction: "GB", registration_number: "1", documents: [" "] }),
    ).toMatchObject({
      refusal: "InvalidInput",
    });
  });

  test("kyb_status moves", () => {
    expect(nextKybStatus("pending", "start_check")).toBe("in_progress");
    for (const from of ["in_progress", "approved", "rejected"] as const) {
      expect(nextKybStatus(from, "start_check")).toMatchObject({ refusal: "InvalidState" });
    }
    for (const from of ["pending", "in_progress"] as const) {
      expect(nextKybStatus(from, "approve")).toBe("approved");
      expect(nextKybStatus(from, "reject")).toBe("rejected");
    }
    for (const from of ["approved", "rejected"] as const) {
      expect(nextKybStatus(from, "approve")).toMatchObject({ refusal: "InvalidState" });
      expect(nextKybStatus(from, "reject")).toMatchObject({ refusal: "InvalidState" });
    }
  });

  test("the hard gate binds only when on; older verdicts are not recorded", () => {
    for (const verdict of [null, "denied", "suspected", "pending", "approved"]) {
      expect(hardGateRefusal({ kyb_provider_status: verdict }, false)).toBeNull();
      expect(hardGateRefusal({ kyb_provider_status: verdict }, true) === null).toBe(verdict === "approved");
    }
    const t = at("2026-11-23T10:00:00.000Z");
    expect(recordsVerdict(null, t)).toBe(true);
    expect(recordsVerdict(t, t)).toBe(true);
    expect(recordsVerdict(at("2026-11-23T10:00:00.001Z"), t)).toBe(false);
  });
});
