import { beforeEach, describe, expect, test } from "vitest";
import type { ExternalCompanyRegistrationResult } from "../../generated/types.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { deliver, kybVerdict, userWithResident } from "./support.ts";

let t: TestApp;
let reg: ExternalCompanyRegistrationResult;
let scanRef: string;
beforeEach(async () => {
  t = await startTestApp();
  const { client: ada } = await userWithResident(t, "ada@example.org");
  const r = await ada.callOk("kybservice.submit", {
    legal_name: "Acme Trading Ltd",
    jurisdiction: "GB",
    registration_number: "suspected-77",
    documents: ["ref:incorporation"],
  });
  reg = await ada.callOk("kybservice.start_check", { registration_id: r.registration_id });
  scanRef = reg.kyb_scan_ref ?? "";
});

const stored = async () =>
  (
    await sql(
      t,
      `select kyb_status, kyb_provider_status, kyb_checked_at from "external_company_registration" where sid = ?`,
      [reg.registration_id],
    )
  )[0];

describe("handle_kyb_webhook", () => {
  test("records the provider's verdict and when it was reached, and never decides", async () => {
    t.clock.advance(30);
    const v = kybVerdict(t, scanRef, reg.registration_number, { checked_at: "2026-11-23T10:00:10.000Z" });
    const ack = await deliver(t, v);
    expect(ack.result).toEqual({
      received: true,
      event_id: v.event_id,
      duplicate: false,
      matched: true,
      status: "suspected",
    });
    const row = await stored();
    expect(row).toMatchObject({ kyb_status: "in_progress", kyb_provider_status: "suspected" });
    expect(new Date(row.kyb_checked_at).toISOString()).toBe("2026-11-23T10:00:10.000Z");
  });

  test("a repeated event is acknowledged without a second effect; the same id with another body is Replayed", async () => {
    const v = kybVerdict(t, scanRef, reg.registration_number);
    await deliver(t, v);
    const repeat = await deliver(t, v);
    expect(repeat.result).toMatchObject({ duplicate: true, matched: true, status: "suspected" });
    const replay = await deliver(t, { ...v, verdict: "approved" });
    expect(replay.error).toMatchObject({ code: -32005, data: { type: "WebhookError", variant: "Replayed" } });
    expect((await stored()).kyb_provider_status).toBe("suspected");
    expect(await count(t, "webhook_event")).toBe(1);
  });

  test("a bad signature, a stale or future timestamp, or no signature is refused and changes nothing", async () => {
    const forged = await deliver(t, kybVerdict(t, scanRef, "x"), "not-the-secret");
    expect(forged.error).toMatchObject({
      code: -32001,
      data: { type: "WebhookError", variant: "InvalidWebhookSignature" },
    });
    const stale = await deliver(
      t,
      kybVerdict(t, scanRef, "x"),
      t.config.webhookSecret,
      new Date(t.clock.now().getTime() - 301_000),
    );
    expect(stale.error).toMatchObject({ code: -32001, data: { variant: "InvalidWebhookSignature" } });
    const future = await deliver(
      t,
      kybVerdict(t, scanRef, "x"),
      t.config.webhookSecret,
      new Date(t.clock.now().getTime() + 301_000),
    );
    expect(future.error).toMatchObject({ code: -32001, data: { variant: "InvalidWebhookSignature" } });
    const unsigned = await t.rpc("kybservice.handle_kyb_webhook", { data: kybVerdict(t, scanRef, "x") });
    expect(unsigned.error).toMatchObject({ code: -32001, data: { variant: "InvalidWebhookSignature" } });
    expect(await stored()).toMatchObject({ kyb_provider_status: null, kyb_checked_at: null });
    expect(await count(t, "webhook_event")).toBe(0);
  });

  test("the 5-minute window is inclusive at exactly 300 seconds either way", async () => {
    const now = t.clock.now().getTime();
    const early = await deliver(t, kybVerdict(t, scanRef, "x"), t.config.webhookSecret, new Date(now - 300_000));
    expect(early.result?.received).toBe(true);
    const late = await deliver(t, kybVerdict(t, scanRef, "x"), t.config.webhookSecret, new Date(now + 300_000));
    expect(late.result?.received).toBe(true);
  });

  test("an unknown scan reference is acknowledged with matched false and recorded as seen", async () => {
    const ack = await deliver(t, kybVerdict(t, "sbx-kyb-unknown", "x"));
    expect(ack.result).toMatchObject({ duplicate: false, matched: false, status: null });
    expect(await count(t, "webhook_event")).toBe(1);
    expect((await stored()).kyb_provider_status).toBeNull();
  });

  test("a verdict older than the recorded one is acknowledged but not recorded", async () => {
    await deliver(t, kybVerdict(t, scanRef, "x", { verdict: "approved", checked_at: "2026-11-23T10:00:10.000Z" }));
    const older = await deliver(
      t,
      kybVerdict(t, scanRef, "x", { verdict: "denied", checked_at: "2026-11-23T10:00:09.999Z" }),
    );
    expect(older.result).toMatchObject({ duplicate: false, matched: true, status: "approved" });
    expect((await stored()).kyb_provider_status).toBe("approved");
    const newer = await deliver(
      t,
      kybVerdict(t, scanRef, "x", { verdict: "denied", checked_at: "2026-11-23T10:00:10.000Z" }),
    );
    expect(newer.result).toMatchObject({ status: "denied" });
  });

  test("a malformed payload is -32602 and changes nothing", async () => {
    const v = kybVerdict(t, scanRef, "x");
    const bad = await deliver(t, { ...v, verdict: "maybe" as never });
    expect(bad.error?.code).toBe(-32602);
    expect(await count(t, "webhook_event")).toBe(0);
  });
});
