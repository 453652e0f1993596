import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertRole, member, person, startFinanceApp } from "../support/entities.ts";
import { count, errorOf, refusedNoWrite, sql } from "../support/helpers.ts";
import { insertFullCompany } from "./support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const companyError = (variant: string) => ({ type: "CompanyError", variant });
const rowOf = async (companyId: string) =>
  (await sql(t, `select * from zone_company where company_id = ?`, [companyId]))[0];

async function owned(extra: Record<string, unknown> = {}): Promise<{ o: Client; company: string }> {
  const o = await t.register(`profile-owner-${Math.random()}@example.org`);
  return { o, company: await insertFullCompany(t, o.userId, extra) };
}

describe("companyservice.update", () => {
  test("the owner changes the given profile fields; null clears; absent fields stay", async () => {
    const { o, company } = await owned({ phone: "+255700000001", industry: "tea", website: "https://old.example" });
    t.clock.advance(60);
    const r = await o.callOk("companyservice.update", {
      company_id: company,
      data: {
        description: "  Spices and tea  ",
        email: " Info@Example.ORG ",
        website: null,
        phone: "+255 700 000 002",
        crypto_wallets: [{ currency: "BTC", network: "bitcoin", address: " bc1qxyz ", label: null }],
      },
    });
    expect(r).toMatchObject({
      description: "Spices and tea",
      email: "info@example.org",
      website: null,
      phone: "+255700000002",
      industry: "tea",
      crypto_wallets: [{ address: "bc1qxyz" }],
    });
    const row = await rowOf(company);
    expect(row).toMatchObject({ description: "Spices and tea", website: null, industry: "tea" });
    expect(new Date(row.updated_at).toISOString()).toBe(t.clock.now().toISOString());
  });

  test("a founder resident that is not the owner may update", async () => {
    const { company } = await owned();
    const founder = await person(t, company, "founder");
    const r = await founder.client.callOk("companyservice.update", { company_id: company, data: { tax_id: "TIN-9" } });
    expect(r.tax_id).toBe("TIN-9");
  });

  test("a shareholder is Forbidden and an outsider NotFound; nothing is written", async () => {
    const { company } = await owned();
    const holder = await person(t, company, "shareholder");
    const stranger = await member(t);
    const data = { description: "taken over" };
    await refusedNoWrite(
      () => rowOf(company),
      () => holder.client.call("companyservice.update", { company_id: company, data }),
      -32002,
      companyError("Forbidden"),
    );
    await refusedNoWrite(
      () => rowOf(company),
      () => stranger.client.call("companyservice.update", { company_id: company, data }),
      -32003,
      companyError("NotFound"),
    );
  });

  test("a voided or suspended company is InvalidState and nothing is written", async () => {
    for (const status of ["voided", "suspended"]) {
      const { o, company } = await owned({ status });
      await refusedNoWrite(
        () => rowOf(company),
        () => o.call("companyservice.update", { company_id: company, data: { description: "x" } }),
        -32005,
        companyError("InvalidState"),
      );
    }
  });

  test("a bad email, phone, URL or address is InvalidInput naming the field", async () => {
    const { o, company } = await owned();
    const cases = [
      [{ email: "not-an-email" }, "email"],
      [{ phone: "12345" }, "phone"],
      [{ logo_url: "javascript:alert(1)" }, "logo_url"],
      [
        { address: { line1: " ", line2: null, city: "Stone Town", region: null, postal_code: null, country: "TZ" } },
        "address",
      ],
    ] as const;
    for (const [data, field] of cases) {
      const err = errorOf(await o.call("companyservice.update", { company_id: company, data }));
      expect(err, JSON.stringify(data)).toMatchObject({
        code: -32006,
        data: { ...companyError("InvalidInput"), field },
      });
    }
  });

  test("an empty change and a field outside the profile are refused by the params schema", async () => {
    const { o, company } = await owned();
    expect(errorOf(await o.rpc("companyservice.update", { company_id: company, data: {} })).code).toBe(-32602);
    expect(errorOf(await o.rpc("companyservice.update", { company_id: company, data: { name: "New" } })).code).toBe(
      -32602,
    );
  });
});

describe("companyservice.delete", () => {
  test("the owner deletes a draft company without started roles, its future roles with it", async () => {
    const { o, company } = await owned({ status: "draft" });
    const future = await member(t);
    await insertRole(t, company, future.resident, "shareholder", { valid_from: new Date("2030-01-01T00:00:00.000Z") });
    const sid = (await rowOf(company)).sid;
    expect(await o.callOk("companyservice.delete", { company_id: company })).toEqual({ sid, deleted: true });
    expect(await count(t, "zone_company", "company_id = ?", [company])).toBe(0);
    expect(await count(t, "company_role", "company_id = ?", [company])).toBe(0);
  });

  test("a pending_signatures company can be deleted too", async () => {
    const { o, company } = await owned({ status: "pending_signatures" });
    expect((await o.callOk("companyservice.delete", { company_id: company })).deleted).toBe(true);
  });

  test("an active, inactive, suspended or voided company is never deleted (InvalidState)", async () => {
    for (const status of ["active", "inactive", "suspended", "voided"]) {
      const { o, company } = await owned({ status });
      await refusedNoWrite(
        () => rowOf(company),
        () => o.call("companyservice.delete", { company_id: company }),
        -32005,
        companyError("InvalidState"),
      );
    }
  });

  test("a draft whose roles have started, or that once had a subscription, is InvalidState", async () => {
    const { o, company } = await owned({ status: "draft" });
    await person(t, company, "shareholder");
    const writes = async () => ({ c: await rowOf(company), roles: await count(t, "company_role") });
    await refusedNoWrite(writes, () => o.call("companyservice.delete", { company_id: company }), -32005, null);
    const once = await owned({ status: "draft", subscription_start_date: new Date("2026-01-01T00:00:00.000Z") });
    const err = errorOf(await once.o.call("companyservice.delete", { company_id: once.company }));
    expect(err).toMatchObject({ code: -32005, data: companyError("InvalidState") });
  });

  test("a shareholder is Forbidden and an outsider NotFound; nothing is deleted", async () => {
    const { company } = await owned({ status: "draft" });
    const holder = await person(t, company, "shareholder");
    const stranger = await member(t);
    await refusedNoWrite(
      () => rowOf(company),
      () => holder.client.call("companyservice.delete", { company_id: company }),
      -32002,
      companyError("Forbidden"),
    );
    await refusedNoWrite(
      () => rowOf(company),
      () => stranger.client.call("companyservice.delete", { company_id: company }),
      -32003,
      companyError("NotFound"),
    );
  });
});
