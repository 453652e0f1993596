import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { member, person, startFinanceApp } from "../support/entities.ts";
import { errorOf } from "../support/helpers.ts";
import { insertFullCompany } from "./support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const notFound = (type = "CompanyError") => ({ code: -32003, data: { type, variant: "NotFound" } });

async function owner(): Promise<Client> {
  return t.register(`reads-owner-${Math.random()}@example.org`);
}

describe("companyservice.list", () => {
  test("lists the caller's companies by the owner pair, voided included, newest first, paged", async () => {
    const o = await owner();
    const first = await insertFullCompany(t, o.userId, { created_at: new Date("2026-01-01T00:00:00.000Z") });
    const voided = await insertFullCompany(t, o.userId, {
      status: "voided",
      created_at: new Date("2026-02-01T00:00:00.000Z"),
    });
    const last = await insertFullCompany(t, o.userId, { created_at: new Date("2026-03-01T00:00:00.000Z") });
    const other = await owner();
    await insertFullCompany(t, other.userId);
    const all = await o.callOk("companyservice.list", { page: 1, page_size: 0 });
    expect(all).toMatchObject({ total: 3, page: 1, page_size: 20 });
    expect(all.items.map((c) => c.company_id)).toEqual([last, voided, first]);
    const second = await o.callOk("companyservice.list", { page: 2, page_size: 1 });
    expect(second).toMatchObject({
      total: 3,
      page: 2,
      page_size: 1,
      items: [{ company_id: voided, status: "voided" }],
    });
  });

  test("a partner's company is not the personal user's", async () => {
    const o = await owner();
    await insertFullCompany(t, o.userId, { partner_id: "some-partner" });
    expect(await o.callOk("companyservice.list", { page: 1, page_size: 0 })).toMatchObject({ total: 0, items: [] });
  });

  test("page 0 and page_size over 100 are InvalidInput; another user's id is refused", async () => {
    const o = await owner();
    for (const params of [
      { page: 0, page_size: 10 },
      { page: 1, page_size: 101 },
    ]) {
      expect(errorOf(await o.call("companyservice.list", params))).toMatchObject({
        data: { type: "CompanyError", variant: "InvalidInput" },
      });
    }
    const other = await owner();
    expect(errorOf(await o.call("companyservice.list", { user_id: other.userId, page: 1, page_size: 0 })).code).toBe(
      -32002,
    );
  });
});

describe("companyservice.get", () => {
  test("a member reads every public field, never the owner pair or the encrypted key", async () => {
    const o = await owner();
    const company = await insertFullCompany(t, o.userId, { encrypted_private_key: "aa:bb" });
    const holder = await person(t, company, "shareholder");
    const r = await holder.client.callOk("companyservice.get", { company_id: company });
    expect(r).toMatchObject({ company_id: company, status: "active", void_reason: null });
    expect(r).not.toHaveProperty("user_id");
    expect(r).not.toHaveProperty("encrypted_private_key");
  });

  test("a voided company is returned with its void fields", async () => {
    const o = await owner();
    const company = await insertFullCompany(t, o.userId, {
      status: "voided",
      void_reason: "fraud",
      voided_at: new Date("2026-11-01T00:00:00.000Z"),
      voided_by: "admin@example.org",
    });
    expect(await o.callOk("companyservice.get", { company_id: company })).toMatchObject({
      status: "voided",
      void_reason: "fraud",
      voided_at: "2026-11-01T00:00:00.000Z",
      voided_by: "admin@example.org",
    });
  });

  test("a caller without a role, and an unknown id, get NotFound", async () => {
    const o = await owner();
    const company = await insertFullCompany(t, o.userId);
    const stranger = await member(t);
    expect(errorOf(await stranger.client.call("companyservice.get", { company_id: company }))).toMatchObject(
      notFound(),
    );
    expect(errorOf(await o.call("companyservice.get", { company_id: "FZ-2026-Y999999" }))).toMatchObject(notFound());
  });
});

describe("companyservice.get_card", () => {
  test("any signed-in user reads the card; a current licence counts, an expired one does not", async () => {
    const o = await owner();
    const license = {
      license_number: "L-1",
      license_type: "trading",
      issued_at: "2026-01-01T00:00:00.000Z",
      expires_at: "2027-01-01T00:00:00.000Z",
      granted_by: "admin@example.org",
    };
    const licensed = await insertFullCompany(t, o.userId, { license, industry: "software" });
    const expired = await insertFullCompany(t, o.userId, {
      license: { ...license, expires_at: "2026-02-01T00:00:00.000Z" },
    });
    const stranger = await member(t);
    const card = await stranger.client.callOk("companyservice.get_card", { company_id: licensed });
    expect(card).toMatchObject({
      company_id: licensed,
      name: expect.stringMatching(/^Test Company/),
      industry: "software",
      licensed: true,
      masked: false,
    });
    expect((await stranger.client.callOk("companyservice.get_card", { company_id: expired })).licensed).toBe(false);
  });

  test("anonymity masks the identifying fields for a caller holding no role, not for members", async () => {
    const o = await owner();
    const company = await insertFullCompany(t, o.userId, {
      anonymity_enabled: true,
      website: "https://example.org",
      industry: "mining",
    });
    const stranger = await member(t);
    expect(await stranger.client.callOk("companyservice.get_card", { company_id: company })).toMatchObject({
      company_id: company,
      name: null,
      description: null,
      website: null,
      industry: null,
      logo_url: null,
      masked: true,
    });
    const holder = await person(t, company, "shareholder");
    for (const viewer of [holder.client, o]) {
      expect(await viewer.callOk("companyservice.get_card", { company_id: company })).toMatchObject({
        website: "https://example.org",
        masked: false,
      });
    }
  });

  test("an unknown id is NotFound", async () => {
    const o = await owner();
    expect(errorOf(await o.call("companyservice.get_card", { company_id: "FZ-2026-Y999999" }))).toMatchObject(
      notFound(),
    );
  });
});

describe("companyservice.get_key_status", () => {
  test("a member learns whether a keypair is stored; an outsider gets NotFound", async () => {
    const o = await owner();
    const company = await insertFullCompany(t, o.userId);
    const holder = await person(t, company, "shareholder");
    expect(await holder.client.callOk("companyservice.get_key_status", { company_id: company })).toEqual({
      entity_type: "company",
      entity_id: company,
      has_keypair: false,
      public_key: null,
      keypair_version: 0,
      has_encrypted_private_key: false,
    });
    const stranger = await member(t);
    expect(errorOf(await stranger.client.call("companyservice.get_key_status", { company_id: company }))).toMatchObject(
      notFound("KeypairError"),
    );
  });
});
