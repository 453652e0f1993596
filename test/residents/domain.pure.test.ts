import { describe, expect, test } from "vitest";
import {
  type ActivationFacts,
  decideActivation,
  flowStatusOf,
  kycStatusAsOf,
  laterFlowStatus,
  missingSteps,
} from "../../src/domain/activation.ts";
import { isRefusal } from "../../src/domain/refusal.ts";
import { accessRefusal, ownsResident, residentAccess } from "../../src/domain/resident-access.ts";
import { personalInfoComplete, residentName, residentPhone } from "../../src/domain/resident-profile.ts";
import {
  effectiveStatus,
  RESIDENT_STATUS_ALLOWS,
  statusFromDates,
  statusRefusal,
} from "../../src/domain/resident-status.ts";
import {
  addMonths,
  companyPlanAfterRenewal,
  PLAN_DURATIONS,
  planMonths,
  renewalPlanOf,
  renewedEnd,
  residentPlanAfterRenewal,
  subscriptionStatus,
} from "../../src/domain/subscriptions.ts";

/** The pure rules of residents and registration, without a database. */

const now = new Date("2026-11-23T10:00:00.000Z");
const DAY = 86_400_000;
const shift = (ms: number) => new Date(now.getTime() + ms);

describe("subscription plans and their mapping", () => {
  test("one table: months, renewal, resident and company codes", () => {
    expect(PLAN_DURATIONS.map((d) => [d.months, d.renewal, d.resident, d.company])).toEqual([
      [1, "1_month", null, "monthly"],
      [6, "6_months", "6_months", null],
      [12, "1_year", "1_year", "one_year"],
      [24, "2_years", "2_years", "two_years"],
      [36, "3_years", "3_years", null],
    ]);
    expect(
      ["1_month", "6_months", "1_year", "2_years", "3_years", "monthly", "one_year", "two_years"].map(planMonths),
    ).toEqual([1, 6, 12, 24, 36, 1, 12, 24]);
    expect(planMonths("4_years")).toBeNull();
    expect(renewalPlanOf("6_months")).toBe("6_months");
    expect(renewalPlanOf("monthly")).toBe("1_month");
    expect(renewalPlanOf("two_years")).toBe("2_years");
    expect(residentPlanAfterRenewal("1_month")).toBeNull();
    expect(residentPlanAfterRenewal("3_years")).toBe("3_years");
    expect(companyPlanAfterRenewal("6_months")).toBeNull();
    expect(companyPlanAfterRenewal("1_year")).toBe("one_year");
  });

  test("calendar months in UTC, the day clamped to the month's end", () => {
    expect(addMonths(new Date("2026-01-31T12:00:00.000Z"), 1).toISOString()).toBe("2026-02-28T12:00:00.000Z");
    expect(addMonths(new Date("2027-12-31T00:00:00.000Z"), 2).toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(addMonths(new Date("2026-11-23T10:00:00.000Z"), 36).toISOString()).toBe("2029-11-23T10:00:00.000Z");
  });

  test("a renewal extends from the later of the current end and now", () => {
    expect(renewedEnd(null, now, "1_month").toISOString()).toBe("2026-12-23T10:00:00.000Z");
    expect(renewedEnd(shift(-DAY), now, "1_month").toISOString()).toBe("2026-12-23T10:00:00.000Z");
    expect(renewedEnd(new Date("2027-01-10T00:00:00.000Z"), now, "6_months").toISOString()).toBe(
      "2027-07-10T00:00:00.000Z",
    );
  });

  test("status from the end date: the 30-day edge and the end instant exactly", () => {
    expect(subscriptionStatus(null, now)).toBe("none");
    expect(subscriptionStatus(shift(30 * DAY + 1), now)).toBe("active");
    expect(subscriptionStatus(shift(30 * DAY), now)).toBe("expiring");
    expect(subscriptionStatus(shift(1), now)).toBe("expiring");
    expect(subscriptionStatus(now, now)).toBe("suspended");
    expect(subscriptionStatus(shift(-1), now)).toBe("suspended");
  });
});

describe("resident status", () => {
  test("what each status allows", () => {
    expect(RESIDENT_STATUS_ALLOWS).toEqual({
      pending: ["read", "update_profile", "update_subscription", "set_anonymity", "delete", "activate", "register"],
      active: ["read", "update_profile", "update_subscription", "set_anonymity", "renew", "register", "act"],
      expired: ["read", "update_profile", "update_subscription", "set_anonymity", "renew", "register"],
      suspended: ["read", "set_anonymity"],
    });
    expect(statusRefusal("suspended", "update_profile")).toMatchObject({
      refusal: "InvalidState",
      details: { status: "suspended" },
    });
    expect(statusRefusal("expired", "act")?.message).toContain("renew");
    expect(statusRefusal("pending", "delete")).toBeNull();
    expect(statusRefusal("pending", "register")).toBeNull();
    expect(statusRefusal("suspended", "register")).toMatchObject({ refusal: "InvalidState" });
  });

  test("an active resident reads expired from its end instant on; other statuses as stored", () => {
    const r = (status: "active" | "suspended", end: Date | null) => ({ status, subscription_end_date: end });
    expect(effectiveStatus(r("active", shift(1)), now)).toBe("active");
    expect(effectiveStatus(r("active", now), now)).toBe("expired");
    expect(effectiveStatus(r("active", null), now)).toBe("active");
    expect(effectiveStatus(r("suspended", shift(-DAY)), now)).toBe("suspended");
  });

  test("a lifted suspension goes where the dates say", () => {
    expect(statusFromDates({ subscription_start_date: null, subscription_end_date: null }, now)).toBe("pending");
    expect(statusFromDates({ subscription_start_date: shift(-DAY), subscription_end_date: shift(1) }, now)).toBe(
      "active",
    );
    expect(statusFromDates({ subscription_start_date: shift(-DAY), subscription_end_date: now }, now)).toBe("expired");
  });
});

describe("ownership and access", () => {
  const personal = { userId: "u1", partnerId: null };
  const partner = { userId: "wallet-a", partnerId: "pa" };
  test("the pair decides; two absent user ids never match across partners", () => {
    expect(ownsResident(personal, { user_id: "u1", partner_id: null })).toBe(true);
    expect(ownsResident(personal, { user_id: "u1", partner_id: "pa" })).toBe(false);
    expect(ownsResident(personal, { user_id: null, partner_id: null })).toBe(false);
    expect(ownsResident(partner, { user_id: null, partner_id: "pa" })).toBe(true);
    expect(ownsResident(partner, { user_id: null, partner_id: "pb" })).toBe(false);
    expect(ownsResident(partner, { user_id: "u1", partner_id: null })).toBe(false);
  });

  test("NotFound when unseen, NotOwner when seen without the right", () => {
    expect(accessRefusal(residentAccess(false, false, false), "see")?.refusal).toBe("NotFound");
    expect(accessRefusal(residentAccess(false, false, true), "see")).toBeNull();
    expect(accessRefusal(residentAccess(false, false, true), "change")?.refusal).toBe("NotOwner");
    expect(accessRefusal(residentAccess(false, true, false), "change")).toBeNull();
    expect(accessRefusal(residentAccess(false, true, false), "own")?.refusal).toBe("NotOwner");
    expect(accessRefusal(residentAccess(true, false, false), "own")).toBeNull();
  });
});

describe("profile fields", () => {
  test("phones in international format, stored compact; names trimmed", () => {
    expect(residentPhone(" +255 (700) 000-001 ")).toBe("+255700000001");
    expect(residentPhone("")).toBe("");
    expect(isRefusal(residentPhone("+0700000000"))).toBe(true);
    expect(isRefusal(residentPhone("+12345678901234567"))).toBe(true);
    expect(residentName("first_name", "  Ada ")).toBe("Ada");
    expect(isRefusal(residentName("last_name", "\t"))).toBe(true);
    expect(personalInfoComplete({ email: "a@b.co", first_name: "A", last_name: "B", phone: "" })).toBe(false);
  });
});

describe("the activation rule", () => {
  const complete: ActivationFacts = {
    status: "pending",
    identity: true,
    personalInfo: true,
    payment: { kind: "payment", paymentId: "p1", plan: "2_years", autoRenewal: true },
    kyc: true,
    contracts: true,
    residentPlan: "1_year",
    residentAutoRenewal: false,
  };

  test("everything complete: the payment's plan and auto-renewal, the period from now", () => {
    expect(decideActivation(complete, now)).toEqual({
      activate: true,
      periodPlan: "2_years",
      storedPlan: "2_years",
      autoRenewal: true,
      start: now,
      end: new Date("2028-11-23T10:00:00.000Z"),
    });
  });

  test("each missing step is named; nothing is activated", () => {
    const none: ActivationFacts = {
      ...complete,
      identity: false,
      personalInfo: false,
      payment: null,
      kyc: false,
      contracts: false,
    };
    expect(decideActivation(none, now)).toEqual({
      activate: false,
      missing: ["identity", "personal_info", "payment", "kyc", "contracts"],
    });
    const noPlan: ActivationFacts = {
      ...complete,
      residentPlan: null,
      payment: { ...complete.payment, plan: null } as never,
    };
    expect(missingSteps(noPlan)).toEqual(["subscription_plan"]);
  });

  test("the wallet path (creditservice.activate_resident): the call's plan is the period, no payment row needed", () => {
    const wallet: ActivationFacts = {
      ...complete,
      payment: { kind: "wallet", plan: "1_month" },
      residentPlan: "3_years",
    };
    const d = decideActivation(wallet, now);
    expect(d).toMatchObject({
      activate: true,
      periodPlan: "1_month",
      storedPlan: "3_years",
      autoRenewal: false,
      end: new Date("2026-12-23T10:00:00.000Z"),
    });
    const missingKyc = decideActivation({ ...wallet, kyc: false }, now);
    expect(missingKyc).toEqual({ activate: false, missing: ["kyc"] });
    expect(missingSteps({ ...wallet, payment: { kind: "wallet", plan: "4_years" } })).toEqual(["subscription_plan"]);
  });

  test("only a pending resident is activated", () => {
    for (const status of ["active", "expired", "suspended"] as const) {
      expect(decideActivation({ ...complete, status }, now)).toMatchObject({
        refusal: "InvalidState",
        details: { status },
      });
    }
  });
});

describe("the registration flow", () => {
  const facts = {
    identity: true,
    personalInfo: true,
    payment: true,
    paymentPending: false,
    kyc: true,
    kycPending: false,
    registered: false,
  };
  test("the first step not done, in the enumeration's order", () => {
    expect(flowStatusOf({ ...facts, identity: false })).toBe("identity_pending");
    expect(flowStatusOf({ ...facts, personalInfo: false })).toBe("identity_complete");
    expect(flowStatusOf({ ...facts, payment: false })).toBe("personal_info_complete");
    expect(flowStatusOf({ ...facts, payment: false, paymentPending: true })).toBe("payment_pending");
    expect(flowStatusOf({ ...facts, kyc: false })).toBe("payment_complete");
    expect(flowStatusOf({ ...facts, kyc: false, kycPending: true })).toBe("kyc_pending");
    expect(flowStatusOf(facts)).toBe("kyc_complete");
    expect(flowStatusOf({ ...facts, registered: true })).toBe("registration_complete");
  });

  test("never behind the recorded status", () => {
    expect(laterFlowStatus("payment_complete", "kyc_complete")).toBe("kyc_complete");
    expect(laterFlowStatus("registration_complete", "kyc_complete")).toBe("registration_complete");
    expect(laterFlowStatus("identity_pending", null)).toBe("identity_pending");
  });

  test("an open KYC session past its expiry reads expired", () => {
    expect(kycStatusAsOf({ status: "pending", expires_at: now }, now)).toBe("expired");
    expect(kycStatusAsOf({ status: "in_progress", expires_at: shift(1) }, now)).toBe("in_progress");
    expect(kycStatusAsOf({ status: "needs_review", expires_at: shift(-DAY) }, now)).toBe("needs_review");
  });
});
