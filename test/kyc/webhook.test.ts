import { beforeEach, describe, expect, test } from "vitest";
import { sandboxKycVerdict } from "../../src/integrations/identity/sandbox-kyc.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { deliver, insertResident, residentRow, sandboxVerdict, sessionRow, startKyc, verdict } from "./support.ts";

let t: TestApp;
let ada: Client;
beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});

/** A session of `who`'s personal resident (one personal resident per user: a second session needs another user). */
async function session(lastName = "Lovelace", who = ada) {
  const residentId = await insertResident(t, who.userId, { last_name: lastName });
  return { residentId, ...(await startKyc(t, who, residentId)) };
}

const status = async (sessionId: string, who = ada) =>
  (await who.callOk("kycservice.check_status", { session_id: sessionId })).status;

describe("verdicts", () => {
  test("approved completes the session with the flags and records the identity on the resident, still pending", async () => {
    const s = await session();
    t.clock.advance(90);
    const v = sandboxVerdict(t, s.scanRef);
    const ack = await deliver(t, v);
    expect(ack.result).toEqual({
      received: true,
      event_id: v.event_id,
      duplicate: false,
      matched: true,
      status: "completed",
    });
    expect(await ada.callOk("kycservice.check_status", { session_id: s.sessionId })).toMatchObject({
      status: "completed",
      identity_verified: true,
      document_verified: true,
      liveness_verified: true,
      verification_level: "full",
      provider_verdict: "approved",
      verified_at: t.clock.now().toISOString(),
    });
    expect(await residentRow(t, s.residentId)).toMatchObject({ kyc_provider_id: v.kyc_provider_id, status: "pending" });
    // Completed by the provider, audited as an administrator's approval is (issue 29 item 15); once, not on a repeat.
    await deliver(t, v);
    const audit = await sql(
      t,
      "select subject_id, target_ref, target_type, allowed from user_audit_log where action = 'verify_kyc'",
    );
    expect(audit).toEqual([
      { subject_id: ada.userId, target_ref: s.sessionId, target_type: "kyc_session", allowed: true },
    ]);
  });

  test("an approved verdict without an identity reference records the scan reference on the resident", async () => {
    const s = await session();
    const { kyc_provider_id: _omitted, ...withoutIdentity } = verdict(t, s.scanRef);
    await deliver(t, withoutIdentity);
    expect((await residentRow(t, s.residentId))["kyc_provider_id"]).toBe(s.scanRef);
  });

  test("denied fails the session and leaves the resident unverified", async () => {
    const s = await session("sandbox-denied");
    const ack = await deliver(t, sandboxVerdict(t, s.scanRef));
    expect(ack.result).toMatchObject({ matched: true, status: "failed" });
    expect(await sessionRow(t, s.sessionId)).toMatchObject({
      status: "failed",
      provider_verdict: "denied",
      provider_reason: "sandbox verdict: denied",
      identity_verified: false,
      verified_at: null,
    });
    expect((await residentRow(t, s.residentId))["kyc_provider_id"]).toBe("");
  });

  test("suspected on an instance requiring sign-off holds the session for review; the resident stays pending", async () => {
    const s = await session("sandbox-suspected");
    const ack = await deliver(t, sandboxVerdict(t, s.scanRef));
    expect(ack.result).toMatchObject({ status: "needs_review" });
    expect(await sessionRow(t, s.sessionId)).toMatchObject({
      status: "needs_review",
      provider_verdict: "suspected",
      identity_verified: true,
      liveness_verified: false,
      verified_at: null,
    });
    expect(await residentRow(t, s.residentId)).toMatchObject({ status: "pending", kyc_provider_id: "" });
    // Held sessions do not expire: only an administrator decides.
    t.clock.advance(2 * 24 * 3600);
    const admin = await t.admin();
    expect((await admin.callOk("kycservice.check_status", { session_id: s.sessionId })).status).toBe("needs_review");
  });

  test("suspected without manual sign-off (KYC_MANUAL_REVIEW=0) fails the session", async () => {
    t = await startTestApp({ kyc: { ...t.config.kyc, manualReview: false } });
    ada = await t.register("ada@example.org");
    const s = await session("sandbox-suspected");
    expect((await deliver(t, sandboxVerdict(t, s.scanRef))).result).toMatchObject({ status: "failed" });
    expect((await residentRow(t, s.residentId))["kyc_provider_id"]).toBe("");
  });

  test("pending marks the session in progress; expired expires it", async () => {
    const s = await session();
    await deliver(t, verdict(t, s.scanRef, { verdict: "pending" }));
    expect(await status(s.sessionId)).toBe("in_progress");
    await deliver(t, verdict(t, s.scanRef, { verdict: "pending" }));
    expect(await status(s.sessionId)).toBe("in_progress");
    await deliver(t, verdict(t, s.scanRef, { verdict: "expired" }));
    expect(await status(s.sessionId)).toBe("expired");
  });

  test("an in-progress session is completed by the final verdict", async () => {
    const s = await session();
    await deliver(t, verdict(t, s.scanRef, { verdict: "pending" }));
    expect((await deliver(t, sandboxVerdict(t, s.scanRef))).result.status).toBe("completed");
  });

  test("a verdict for a decided session changes nothing but is acknowledged", async () => {
    const s = await session("sandbox-denied");
    await deliver(t, sandboxVerdict(t, s.scanRef));
    const before = await sessionRow(t, s.sessionId);
    t.clock.advance(10);
    const late = await deliver(t, verdict(t, s.scanRef));
    expect(late.result).toMatchObject({ matched: true, duplicate: false, status: "failed" });
    expect(await sessionRow(t, s.sessionId)).toEqual(before);
    expect((await residentRow(t, s.residentId))["kyc_provider_id"]).toBe("");
  });

  test("an unknown scan reference is acknowledged with matched false", async () => {
    const v = verdict(t, "sbx-kyc-approved-000000000000000000000000");
    expect((await deliver(t, v)).result).toEqual({
      received: true,
      event_id: v.event_id,
      duplicate: false,
      matched: false,
      status: null,
    });
    expect(await count(t, "webhook_event")).toBe(1);
  });

  test("the sandbox never answers for a silent person", async () => {
    const s = await session("sandbox-silent");
    expect(sandboxKycVerdict(s.scanRef, "evt", t.clock.now())).toBeNull();
  });
});

describe("signature, window and replays", () => {
  test("a bad signature is refused and changes nothing", async () => {
    const s = await session();
    const r = await deliver(t, sandboxVerdict(t, s.scanRef), "not-the-secret");
    expect(errorOf(r)).toMatchObject({
      code: -32001,
      data: { type: "WebhookError", variant: "InvalidWebhookSignature" },
    });
    expect(await status(s.sessionId)).toBe("pending");
    expect(await count(t, "webhook_event")).toBe(0);
  });

  test("a missing signature is refused", async () => {
    const s = await session();
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "kycservice.handle_kycprovider_webhook",
      params: { data: verdict(t, s.scanRef) },
    };
    const r = await t.post("/rpc", body);
    expect(errorOf(r)).toMatchObject({ code: -32001, data: { variant: "InvalidWebhookSignature" } });
    expect(await status(s.sessionId)).toBe("pending");
  });

  test("a signature 5 minutes old is accepted; one second more is stale and refused", async () => {
    const s = await session();
    const stale = await deliver(t, verdict(t, s.scanRef), undefined, new Date(t.clock.now().getTime() - 301_000));
    expect(errorOf(stale)).toMatchObject({ code: -32001, data: { variant: "InvalidWebhookSignature" } });
    const ahead = await deliver(t, verdict(t, s.scanRef), undefined, new Date(t.clock.now().getTime() + 301_000));
    expect(errorOf(ahead)).toMatchObject({ code: -32001 });
    expect(await status(s.sessionId)).toBe("pending");
    const edge = await deliver(t, verdict(t, s.scanRef), undefined, new Date(t.clock.now().getTime() - 300_000));
    expect(edge.result.status).toBe("completed");
  });

  test("a redelivered event is acknowledged as a duplicate without a second effect", async () => {
    const s = await session();
    const v = sandboxVerdict(t, s.scanRef);
    await deliver(t, v);
    const after = await sessionRow(t, s.sessionId);
    const resident = await residentRow(t, s.residentId);
    t.clock.advance(30);
    const again = await deliver(t, v);
    expect(again.result).toEqual({
      received: true,
      event_id: v.event_id,
      duplicate: true,
      matched: true,
      status: "completed",
    });
    expect(await sessionRow(t, s.sessionId)).toEqual(after);
    expect(await residentRow(t, s.residentId)).toEqual(resident);
    expect(await count(t, "webhook_event")).toBe(1);
  });

  test("concurrent deliveries act once: the same event five times, and two different verdicts at once", async () => {
    const s = await session();
    const v = sandboxVerdict(t, s.scanRef);
    const replies = await Promise.all(Array.from({ length: 5 }, () => deliver(t, v)));
    expect(replies.every((r) => r.result?.received === true)).toBe(true);
    expect(await count(t, "webhook_event")).toBe(1);
    expect((await residentRow(t, s.residentId))["kyc_provider_id"]).toBe(v.kyc_provider_id);
    const bob = await t.register("bob@example.org");
    const other = await session("Lovelace", bob);
    const [a, b] = await Promise.all([
      deliver(t, verdict(t, other.scanRef, { verdict: "denied" })),
      deliver(t, verdict(t, other.scanRef, { verdict: "approved" })),
    ]);
    const final = await status(other.sessionId, bob);
    expect(["failed", "completed"]).toContain(final);
    expect([a.result.status, b.result.status]).toEqual([final, final]);
  });

  test("a replayed event id with another body is refused and changes nothing", async () => {
    const s = await session();
    const first = verdict(t, s.scanRef, { verdict: "pending" });
    await deliver(t, first);
    const replay = await deliver(t, { ...first, verdict: "approved" });
    expect(errorOf(replay)).toMatchObject({ code: -32005, data: { type: "WebhookError", variant: "Replayed" } });
    expect(await status(s.sessionId)).toBe("in_progress");
    expect((await residentRow(t, s.residentId))["kyc_provider_id"]).toBe("");
  });

  test.each([
    ["a date that does not exist", { dob: "1990-02-30" }],
    ["a date in another format", { document_expiry: "31/01/2031" }],
    ["a lower-case nationality", { nationality: "tz" }],
    ["an overlong value", { document_number: "X".repeat(201) }],
  ])("malformed personal data (%s) is InvalidInput, changes nothing and can be redelivered", async (_n, personal) => {
    t = await startTestApp({ kyc: { ...t.config.kyc, personalData: { ...t.config.kyc.personalData, enabled: true } } });
    ada = await t.register("ada@example.org");
    const s = await session();
    const v = verdict(t, s.scanRef, { personal_data: personal });
    const r = await deliver(t, v);
    expect(errorOf(r)).toMatchObject({ code: -32006, data: { type: "WebhookError", variant: "InvalidInput" } });
    expect(await status(s.sessionId)).toBe("pending");
    expect(await count(t, "webhook_event")).toBe(0);
    expect(await count(t, "kyc_personal_data")).toBe(0);
    const fixed = await deliver(t, { ...v, personal_data: { dob: "1990-02-28" } });
    expect(fixed.result.status).toBe("completed");
  });

  test("a payload the schema refuses is -32602 and changes nothing", async () => {
    const s = await session();
    const r = await deliver(t, { ...verdict(t, s.scanRef), verdict: "maybe" as never });
    expect(errorOf(r).code).toBe(-32602);
    expect(await status(s.sessionId)).toBe("pending");
    expect(await sql(t, `select 1 from "webhook_event"`)).toHaveLength(0);
  });
});
