import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import {
  insertCompany,
  insertResident,
  insertRole,
  insertVerifiedKyc,
  member,
  newKeypair,
  startSigningApp,
} from "./support.ts";

/** verify_individual and verify_company: the tier the server derives, what each shows, what anonymity masks. */

let t: TestApp;
let ada: Client;
let bob: Client;

beforeAll(async () => {
  t = await startSigningApp();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
});

async function linkFor(
  owner: Client,
  entity_type: "resident" | "company",
  entity_id: string,
  single_use = false,
): Promise<string> {
  const r = await owner.callOk("verificationservice.create_verification_link", {
    entity_type,
    entity_id,
    expires_in_hours: 24,
    single_use,
  });
  return r.token;
}

async function externalIdOf(residentId: string): Promise<string> {
  const [row] = await sql(t, `select external_id from "digital_resident" where resident_id = ?`, [residentId]);
  return row.external_id;
}

describe("verificationservice.verify_individual", () => {
  let resident: string;
  const kp = newKeypair();

  beforeAll(async () => {
    resident = await insertResident(t, ada.userId, {
      first_name: "Ada",
      last_name: "lovelace",
      subscription_end_date: new Date("2027-06-01T00:00:00.000Z"),
    });
    await insertVerifiedKyc(t, ada.userId, resident);
    await ada.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: resident,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
  });

  test("tier 1 (anonymous): status, type, external id and whether the identity is verified, nothing more", async () => {
    const r = await t.callOk("verificationservice.verify_individual", { resident_id: resident, requester_tier: 3 });
    expect(r).toEqual({
      resident_id: resident,
      tier: 1,
      anonymity_applied: false,
      verified: true,
      status: "active",
      resident_type: "personal",
      external_id: await externalIdOf(resident),
      identity_verified: true,
      display_name: null,
      first_name: null,
      last_name: null,
      member_since: null,
      subscription_status: null,
      public_key: null,
      keypair_version: null,
      verification_level: null,
      kyc_verified_at: null,
      checked_at: t.clock.now().toISOString(),
    });
  });

  test("tier 2 (signed in) adds the display name, membership and key; asking for 3 does not raise it", async () => {
    const r = await bob.callOk("verificationservice.verify_individual", { resident_id: resident, requester_tier: 3 });
    expect(r).toMatchObject({
      tier: 2,
      display_name: "Ada L.",
      first_name: null,
      last_name: null,
      member_since: "2026-01-15T08:00:00.000Z",
      subscription_status: "active",
      public_key: kp.publicKey,
      keypair_version: 1,
      verification_level: null,
    });
  });

  test("requester_tier lowers the tier: a member asking for tier 1 gets tier 1", async () => {
    const r = await bob.callOk("verificationservice.verify_individual", { resident_id: resident, requester_tier: 1 });
    expect(r).toMatchObject({ tier: 1, display_name: null, public_key: null });
  });

  test("tier 3 with a link token (even anonymous): full name and KYC level and date", async () => {
    const token = await linkFor(ada, "resident", resident);
    const r = await t.callOk("verificationservice.verify_individual", {
      resident_id: resident,
      requester_tier: 3,
      link_token: token,
    });
    expect(r).toMatchObject({
      tier: 3,
      display_name: "Ada L.",
      first_name: "Ada",
      last_name: "lovelace",
      verification_level: "full",
      kyc_verified_at: "2026-03-01T12:00:00.000Z",
    });
  });

  test("the resident is found by its external id too (what the public verify URL carries)", async () => {
    const r = await t.callOk("verificationservice.verify_individual", {
      resident_id: await externalIdOf(resident),
      requester_tier: 1,
    });
    expect(r.resident_id).toBe(resident);
  });

  test("without a completed KYC session the identity is not verified, and neither is the resident", async () => {
    const { resident: pending } = await member(t, { status: "pending" });
    const r = await t.callOk("verificationservice.verify_individual", { resident_id: pending, requester_tier: 1 });
    expect(r).toMatchObject({ status: "pending", identity_verified: false, verified: false });
  });

  test("a provider reference without a session also counts as a verified identity (no level or date)", async () => {
    const { resident: referenced } = await member(t, { kyc_provider_id: "sbx-ref-1" });
    const r = await bob.callOk("verificationservice.verify_individual", { resident_id: referenced, requester_tier: 2 });
    expect(r).toMatchObject({ identity_verified: true, verified: true });
  });

  test("an active resident whose subscription ended reads expired at once, and is not verified", async () => {
    const { client, resident: lapsed } = await member(t, {
      subscription_end_date: new Date("2026-11-23T10:00:00.000Z"),
    });
    await insertVerifiedKyc(t, client.userId, lapsed);
    const r = await t.callOk("verificationservice.verify_individual", { resident_id: lapsed, requester_tier: 1 });
    expect(r).toMatchObject({ status: "expired", identity_verified: true, verified: false });
  });

  test("anonymity masks tiers 1 and 2 but never tier-3 link access", async () => {
    const { client: ada, resident: shy } = await member(t, {
      anonymity_enabled: true,
      first_name: "Grace",
      last_name: "Hopper",
    });
    const tier1 = await t.callOk("verificationservice.verify_individual", { resident_id: shy, requester_tier: 1 });
    expect(tier1).toMatchObject({ tier: 1, anonymity_applied: true, external_id: null, display_name: null });
    const tier2 = await bob.callOk("verificationservice.verify_individual", { resident_id: shy, requester_tier: 2 });
    expect(tier2).toMatchObject({ tier: 2, anonymity_applied: true, external_id: null, display_name: null });
    const token = await linkFor(ada, "resident", shy);
    const tier3 = await t.callOk("verificationservice.verify_individual", {
      resident_id: shy,
      requester_tier: 3,
      link_token: token,
    });
    expect(tier3).toMatchObject({
      tier: 3,
      anonymity_applied: false,
      display_name: "Grace H.",
      first_name: "Grace",
      last_name: "Hopper",
    });
    expect(tier3.external_id).toMatch(/^FZX-/);
  });

  test("requester_tier outside 1 to 3 is InvalidInput; an unknown resident is NotFound", async () => {
    for (const requester_tier of [0, 4, -1]) {
      const r = await t.call("verificationservice.verify_individual", { resident_id: resident, requester_tier });
      expect(errorOf(r)).toMatchObject({ code: -32006, data: { type: "VerificationError", variant: "InvalidInput" } });
    }
    const r = await t.call("verificationservice.verify_individual", {
      resident_id: "FZ-2026-RA999999",
      requester_tier: 1,
    });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "VerificationError", variant: "NotFound" } });
  });

  test("a link made for another entity, or an unknown token, is LinkError NotFound", async () => {
    const { client: ada, resident: other } = await member(t);
    const token = await linkFor(ada, "resident", other);
    for (const link_token of [token, "fzl_nonsense"]) {
      const r = await t.call("verificationservice.verify_individual", {
        resident_id: resident,
        requester_tier: 3,
        link_token,
      });
      expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "LinkError", variant: "NotFound" } });
    }
  });

  test("a single-use link is spent by a tier-3 lookup only", async () => {
    const token = await linkFor(ada, "resident", resident, true);
    const lowered = await t.callOk("verificationservice.verify_individual", {
      resident_id: resident,
      requester_tier: 2,
      link_token: token,
    });
    // The link grants up to tier 3; asking for 2 gets 2 and leaves the link unspent.
    expect(lowered.tier).toBe(2);
    expect(await count(t, "verification_link", "status = 'active' and use_count = 0 and single_use")).toBe(1);
    const full = await t.callOk("verificationservice.verify_individual", {
      resident_id: resident,
      requester_tier: 3,
      link_token: token,
    });
    expect(full.tier).toBe(3);
    const again = await t.call("verificationservice.verify_individual", {
      resident_id: resident,
      requester_tier: 3,
      link_token: token,
    });
    expect(errorOf(again)).toMatchObject({ code: -32005, data: { type: "LinkError", variant: "AlreadyUsed" } });
  });
});

describe("verificationservice.verify_company", () => {
  let company: string;

  beforeAll(async () => {
    company = await insertCompany(t, ada.userId, {
      name: "Difference Engines FZC",
      registration_number: "FZ-REG-0042",
      license: { license_type: "trading", granted_at: "2026-02-02T00:00:00.000Z" },
      subscription_end_date: new Date("2026-12-01T00:00:00.000Z"),
    });
    const { resident: director } = await member(t, { first_name: "Charles", last_name: "Babbage" });
    await insertRole(t, company, director, "director");
    await insertRole(t, company, "FZ-2026-RA888888", "director", { holder_name: "External Director Ltd" });
    await insertRole(t, company, director, "director", {
      valid_from: new Date("2025-01-01T00:00:00.000Z"),
      valid_to: new Date("2025-06-01T00:00:00.000Z"),
    });
  });

  test("tier 1: status, type, licence, voided and good standing", async () => {
    const r = await t.callOk("verificationservice.verify_company", { company_id: company, requester_tier: 1 });
    expect(r).toMatchObject({
      company_id: company,
      tier: 1,
      verified: true,
      status: "active",
      company_type: "single_fzc",
      voided: false,
      licensed: true,
      name: null,
      registration_number: null,
      subscription_status: null,
      directors: null,
    });
  });

  test("tier 2: name, registration number and date, subscription status (expiring within 30 days)", async () => {
    t.clock.set("2026-11-23T10:00:00.000Z");
    const r = await bob.callOk("verificationservice.verify_company", { company_id: company, requester_tier: 2 });
    expect(r).toMatchObject({
      tier: 2,
      name: "Difference Engines FZC",
      registration_number: "FZ-REG-0042",
      registered_at: "2026-02-01T08:00:00.000Z",
      subscription_status: "expiring",
      directors: null,
    });
  });

  test("tier 3: the current directors' display names", async () => {
    const token = await linkFor(ada, "company", company);
    const r = await t.callOk("verificationservice.verify_company", {
      company_id: company,
      requester_tier: 3,
      link_token: token,
    });
    expect(r.tier).toBe(3);
    expect(r.directors).toEqual(["Charles B.", "External Director Ltd"]);
  });

  test("a voided company is reported voided and not verified; anonymity masks name and registration below tier 3", async () => {
    const voided = await insertCompany(t, ada.userId, {
      status: "voided",
      voided_at: new Date("2026-05-01T00:00:00.000Z"),
      void_reason: "duplicate",
      anonymity_enabled: true,
    });
    const r = await bob.callOk("verificationservice.verify_company", { company_id: voided, requester_tier: 2 });
    expect(r).toMatchObject({
      voided: true,
      verified: false,
      anonymity_applied: true,
      name: null,
      registration_number: null,
      external_id: null,
    });
  });

  test("a lapsed subscription is not in good standing", async () => {
    const lapsed = await insertCompany(t, ada.userId, { subscription_end_date: new Date("2026-01-01T00:00:00.000Z") });
    const r = await bob.callOk("verificationservice.verify_company", { company_id: lapsed, requester_tier: 2 });
    expect(r).toMatchObject({ verified: false, subscription_status: "suspended" });
  });

  test("an unknown company is NotFound; a resident's link does not open a company", async () => {
    const r = await t.call("verificationservice.verify_company", { company_id: "FZ-2026-Y999999", requester_tier: 1 });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "VerificationError" } });
    const other = await member(t);
    const residentLink = await linkFor(other.client, "resident", other.resident);
    const wrong = await t.call("verificationservice.verify_company", {
      company_id: company,
      requester_tier: 3,
      link_token: residentLink,
    });
    expect(errorOf(wrong)).toMatchObject({ code: -32003, data: { type: "LinkError", variant: "NotFound" } });
  });
});
