import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import {
  createResident,
  insertContract,
  insertKycSession,
  insertPayment,
  insertSignature,
  residentRow,
  verifyEmail,
} from "./support.ts";

/**
 * RegistrationService: the flow computed from the records, the checks, and activation with the one rule
 * (src/domain/activation.ts). Payments, KYC sessions, contracts and signatures are inserted as their issues would
 * leave them.
 */

let t: TestApp;
let ada: Client;

beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});

type Step = "identity" | "personal_info" | "payment" | "kyc" | "contracts";

/** Ada's resident with every step done except those in `skip`. */
async function residentWith(skip: Step[] = [], plan: "1_year" | "2_years" = "1_year") {
  if (!skip.includes("identity")) await verifyEmail(t, ada.userId);
  const r = await createResident(ada, skip.includes("personal_info") ? { phone: "" } : {});
  const terms = await insertContract(t, "terms_of_service");
  const residency = await insertContract(t, "digital_residency", { category: "digital_residency" });
  if (!skip.includes("contracts")) {
    await insertSignature(t, ada.userId, terms);
    await insertSignature(t, ada.userId, residency, { entity_type: "digital_resident", entity_id: r.sid });
  }
  if (!skip.includes("kyc")) await insertKycSession(t, ada.userId, r.resident_id);
  if (!skip.includes("payment")) {
    await insertPayment(t, ada.userId, r.resident_id, { subscription_plan: plan, auto_renewal: true });
  }
  return { ...r, terms, residency };
}

const activate = () => ada.call("registrationservice.activate_if_complete", {});
const status = (entity_type: "resident" | "company" = "resident") =>
  ada.callOk("registrationservice.get_status", { entity_type });

describe("registrationservice.activate_if_complete", () => {
  test("activates once every step is complete: status, dates from the payment's plan, flow recorded", async () => {
    const r = await residentWith();
    const a = await ada.callOk("registrationservice.activate_if_complete", {});
    expect(a).toEqual({
      activated: true,
      user_id: ada.userId,
      resident_id: r.resident_id,
      status: "active",
      subscription_plan: "1_year",
      subscription_start_date: "2026-11-23T10:00:00.000Z",
      subscription_end_date: "2027-11-23T10:00:00.000Z",
      keypair_version: null,
      amount_charged: null,
      credit_transaction_id: null,
      balance_after: null,
      missing_steps: [],
    });
    expect(await ada.callOk("residentservice.get", { resident_id: r.resident_id })).toMatchObject({
      status: "active",
      auto_renewal: true,
      subscription_status: "active",
    });
    const flow = await sql(t, `select status, updated_at from "registration_flow" where user_id = ?`, [ada.userId]);
    expect(flow.map((f) => f.status)).toEqual(["registration_complete"]);
    expect(await status()).toMatchObject({
      status: "registration_complete",
      registration_complete: true,
      updated_at: "2026-11-23T10:00:00.000Z",
    });
  });

  test("asked again after activation it answers the same activation and moves nothing", async () => {
    await residentWith();
    const first = await ada.callOk("registrationservice.activate_if_complete", {});
    t.clock.advance(600);
    expect(await ada.callOk("registrationservice.activate_if_complete", {})).toEqual(first);
  });

  test("a fresh resident lists every missing step", async () => {
    await createResident(ada);
    expect(await ada.callOk("registrationservice.activate_if_complete", {})).toMatchObject({
      activated: false,
      status: "pending",
      subscription_start_date: null,
      missing_steps: ["identity", "payment", "kyc"],
    });
  });

  test.each<Step>(["identity", "personal_info", "payment", "kyc", "contracts"])(
    "with %s missing nothing is activated and nothing changes",
    async (step) => {
      const r = await residentWith([step]);
      const before = await residentRow(t, r.resident_id);
      const a = await ada.callOk("registrationservice.activate_if_complete", {});
      expect(a).toMatchObject({ activated: false, status: "pending", missing_steps: [step] });
      expect(await residentRow(t, r.resident_id)).toEqual(before);
      expect(await count(t, "registration_flow")).toBe(0);
    },
  );

  test("a new version of a required contract must be signed again", async () => {
    const r = await residentWith();
    await sql(t, `update "registration_contract" set version = '2027.1' where sid = ?`, [r.terms.sid]);
    expect((await ada.callOk("registrationservice.activate_if_complete", {})).missing_steps).toEqual(["contracts"]);
    await insertSignature(t, ada.userId, { sid: r.terms.sid, version: "2027.1" });
    expect((await ada.callOk("registrationservice.activate_if_complete", {})).activated).toBe(true);
  });

  test("contracts not required of residents, inactive or not yet in force are not needed; another user's signature does not count", async () => {
    const r = await residentWith();
    await insertContract(t, "company_articles", { category: "company_formation", required_for: ["company"] });
    await insertContract(t, "old_terms", { is_active: false });
    await insertContract(t, "next_terms", { effective_from: new Date("2027-01-01T00:00:00.000Z") });
    const privacy = await insertContract(t, "privacy_policy", { category: "privacy_policy" });
    const bob = await t.register("bob@example.org");
    await insertSignature(t, bob.userId, privacy);
    expect((await ada.callOk("registrationservice.activate_if_complete", {})).missing_steps).toEqual(["contracts"]);
    await insertSignature(t, ada.userId, privacy, { entity_type: "digital_resident", entity_id: r.sid });
    expect((await ada.callOk("registrationservice.activate_if_complete", {})).activated).toBe(true);
  });

  test("a payment naming no plan uses the resident's chosen plan; with neither, subscription_plan is missing", async () => {
    await verifyEmail(t, ada.userId);
    const r = await createResident(ada);
    await insertKycSession(t, ada.userId, r.resident_id);
    await insertPayment(t, ada.userId, r.sid, { subscription_plan: null, auto_renewal: true });
    expect((await ada.callOk("registrationservice.activate_if_complete", {})).missing_steps).toEqual([
      "subscription_plan",
    ]);
    await ada.callOk("residentservice.update_subscription", {
      resident_id: r.resident_id,
      plan: "6_months",
      auto_renewal: false,
    });
    expect(await ada.callOk("registrationservice.activate_if_complete", {})).toMatchObject({
      activated: true,
      subscription_plan: "6_months",
      subscription_end_date: "2027-05-23T10:00:00.000Z",
    });
    // The plan and auto-renewal the resident chose hold when the payment names no plan.
    expect((await residentRow(t, r.resident_id))?.auto_renewal).toBe(false);
  });

  test("a pending, failed or another resident's payment does not count", async () => {
    const r = await residentWith(["payment"]);
    await insertPayment(t, ada.userId, r.resident_id, { status: "pending", confirmed_at: null });
    await insertPayment(t, ada.userId, r.resident_id, { status: "failed", confirmed_at: null });
    await insertPayment(t, ada.userId, "FZ-2026-RA999999");
    await insertPayment(t, ada.userId, r.resident_id, { payment_purpose: "credit_topup" });
    expect((await ada.callOk("registrationservice.activate_if_complete", {})).missing_steps).toEqual(["payment"]);
  });

  test("reserved fields drive no logic: a pep risk tier, non-citizen resident activates alike", async () => {
    const r = await residentWith();
    await sql(
      t,
      `update "digital_resident" set risk_tier = 'pep', is_tanzanian_citizen = false, physical_residence_zanzibar = false,
       kyc_next_refresh_at = '2020-01-01T00:00:00Z' where resident_id = ?`,
      [r.resident_id],
    );
    expect((await ada.callOk("registrationservice.activate_if_complete", {})).activated).toBe(true);
  });

  test("no resident is NotFound; an expired or suspended resident is InvalidState and stays so", async () => {
    expect(errorOf(await activate())).toMatchObject({
      code: -32003,
      data: { type: "RegistrationError", variant: "NotFound" },
    });
    const r = await residentWith();
    const admin = await t.admin();
    await admin.callOk("residentservice.suspend", { resident_id: r.resident_id, reason: "review" });
    expect(errorOf(await activate())).toMatchObject({
      code: -32005,
      data: { variant: "InvalidState", status: "suspended" },
    });
    expect((await residentRow(t, r.resident_id))?.status).toBe("suspended");
    await sql(
      t,
      `update "digital_resident" set status = 'expired', subscription_start_date = '2025-01-01T00:00:00Z',
       subscription_end_date = '2026-01-01T00:00:00Z' where resident_id = ?`,
      [r.resident_id],
    );
    expect(errorOf(await activate())).toMatchObject({
      code: -32005,
      data: { variant: "InvalidState", status: "expired" },
    });
  });

  test("user_id is caller-bound", async () => {
    const bob = await t.register("bob@example.org");
    await residentWith();
    const r = await bob.call("registrationservice.activate_if_complete", { user_id: ada.userId });
    expect(errorOf(r)).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
    expect(await count(t, "registration_flow")).toBe(0);
  });
});

describe("registrationservice.get_status", () => {
  test("walks the flow as the records appear", async () => {
    const flags = async () => {
      const s = await status();
      return [s.status, s.identity_complete, s.personal_info_complete, s.payment_complete, s.kyc_complete];
    };
    expect(await status()).toEqual({
      user_id: ada.userId,
      entity_type: "resident",
      status: "identity_pending",
      identity_complete: false,
      personal_info_complete: false,
      payment_complete: false,
      kyc_complete: false,
      registration_complete: false,
      resident_id: null,
      recorded_status: null,
      updated_at: null,
    });
    await verifyEmail(t, ada.userId);
    expect(await flags()).toEqual(["identity_complete", true, false, false, false]);
    const r = await createResident(ada);
    expect((await status()).resident_id).toBe(r.resident_id);
    expect(await flags()).toEqual(["personal_info_complete", true, true, false, false]);
    const payment = await insertPayment(t, ada.userId, r.resident_id, { status: "pending", confirmed_at: null });
    expect(await flags()).toEqual(["payment_pending", true, true, false, false]);
    await sql(t, `update "payment" set status = 'confirmed' where sid = ?`, [payment]);
    expect(await flags()).toEqual(["payment_complete", true, true, true, false]);
    const session = await insertKycSession(t, ada.userId, r.resident_id, {
      status: "in_progress",
      verified_at: null,
      expires_at: new Date("2026-11-23T10:30:00.000Z"),
    });
    expect(await flags()).toEqual(["kyc_pending", true, true, true, false]);
    t.clock.advance(1800);
    expect((await status()).status).toBe("payment_complete");
    await sql(t, `update "kyc_session" set status = 'completed' where sid = ?`, [session]);
    expect(await flags()).toEqual(["kyc_complete", true, true, true, true]);
    expect(await count(t, "registration_flow")).toBe(0);
  });

  test("the company flow reads the company registration payment and an active company", async () => {
    await verifyEmail(t, ada.userId);
    await createResident(ada);
    await insertPayment(t, ada.userId, "draft-1", { entity_type: "company", payment_purpose: "company_registration" });
    expect(await status("company")).toMatchObject({
      entity_type: "company",
      status: "payment_complete",
      payment_complete: true,
      registration_complete: false,
    });
    await insertRow(t.app.runtime.orm, "ZoneCompany", {
      company_id: "FZ-2026-Y000001",
      user_id: ada.userId,
      partner_id: null,
      name: "Analytical Engines",
      company_type: "single_fzc",
      voting_model: "standard",
      status: "active",
    });
    expect(await status("company")).toMatchObject({ status: "registration_complete", registration_complete: true });
    expect(await status("resident")).toMatchObject({ payment_complete: false, registration_complete: false });
  });
});

describe("registrationservice.check_payment_complete and check_kyc_complete", () => {
  test("payment: nothing, then the newest pending one, then the confirmed one (matched by resident id or sid)", async () => {
    expect(await ada.callOk("registrationservice.check_payment_complete", {})).toEqual({
      user_id: ada.userId,
      payment_complete: false,
      payment_id: null,
      status: null,
      amount: null,
      currency: null,
      confirmed_at: null,
    });
    const r = await createResident(ada);
    const pending = await insertPayment(t, ada.userId, r.resident_id, { status: "pending", confirmed_at: null });
    expect(await ada.callOk("registrationservice.check_payment_complete", {})).toMatchObject({
      payment_complete: false,
      payment_id: pending,
      status: "pending",
    });
    const confirmed = await insertPayment(t, ada.userId, r.sid, { amount: 54, subscription_plan: "6_months" });
    await insertPayment(t, ada.userId, r.resident_id, { status: "failed", confirmed_at: null });
    expect(await ada.callOk("registrationservice.check_payment_complete", {})).toEqual({
      user_id: ada.userId,
      payment_complete: true,
      payment_id: confirmed,
      status: "confirmed",
      amount: 54,
      currency: "USD",
      confirmed_at: "2026-11-23T09:30:00.000Z",
    });
  });

  test("payment: a resident activated through the wallet has paid without a payment row", async () => {
    const r = await createResident(ada);
    await sql(
      t,
      `update "digital_resident" set status = 'active', subscription_start_date = now(), subscription_end_date = now() + interval '1 year'
       where resident_id = ?`,
      [r.resident_id],
    );
    expect(await ada.callOk("registrationservice.check_payment_complete", {})).toMatchObject({
      payment_complete: true,
      payment_id: null,
    });
  });

  test("kyc: nothing; an open session past its expiry reads expired; then the completed one", async () => {
    expect(await ada.callOk("registrationservice.check_kyc_complete", {})).toEqual({
      user_id: ada.userId,
      kyc_complete: false,
      resident_id: null,
      session_id: null,
      kyc_status: null,
      verified_at: null,
    });
    const r = await createResident(ada);
    const open = await insertKycSession(t, ada.userId, r.resident_id, {
      status: "pending",
      verified_at: null,
      expires_at: new Date("2026-11-23T11:00:00.000Z"),
    });
    expect(await ada.callOk("registrationservice.check_kyc_complete", {})).toMatchObject({
      kyc_complete: false,
      resident_id: r.resident_id,
      session_id: open,
      kyc_status: "pending",
    });
    t.clock.set("2026-11-23T11:00:00.000Z");
    const later = await t.call("authservice.login", {
      email: "ada@example.org",
      password: "correct horse battery staple 42",
    });
    const token = "result" in later && "access_token" in later.result ? later.result.access_token : "";
    const again = await t.rpc("registrationservice.check_kyc_complete", {}, { authorization: `Bearer ${token}` });
    expect(again.result).toMatchObject({ kyc_complete: false, kyc_status: "expired" });
    const done = await insertKycSession(t, ada.userId, r.resident_id);
    const completed = await t.rpc("registrationservice.check_kyc_complete", {}, { authorization: `Bearer ${token}` });
    expect(completed.result).toMatchObject({
      kyc_complete: true,
      session_id: done,
      kyc_status: "completed",
      verified_at: "2026-11-23T09:45:00.000Z",
    });
  });

  test("another user's checks are refused", async () => {
    const bob = await t.register("bob@example.org");
    for (const method of [
      "registrationservice.check_payment_complete",
      "registrationservice.check_kyc_complete",
    ] as const) {
      expect(errorOf(await bob.call(method, { user_id: ada.userId }))).toMatchObject({ code: -32002 });
    }
    expect(
      errorOf(await bob.call("registrationservice.get_status", { user_id: ada.userId, entity_type: "resident" })),
    ).toMatchObject({
      code: -32002,
    });
  });
});
