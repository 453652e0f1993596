import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listTemplates } from "../../src/contracts/templates.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { errorOf, sql } from "../support/helpers.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ contractTemplateSync: true });
});
afterAll(() => t.close());

const keys = (items: { category_key: string }[]) => items.map((i) => i.category_key);
const REGISTRATION = listTemplates().filter((f) => f.stage !== "company");

describe("template catalogue (anonymous)", () => {
  test("list_templates lists every template by name, without content", async () => {
    const r = await t.callOk("contractservice.list_templates");
    expect(r.items).toHaveLength(listTemplates().length);
    const names = r.items.map((i) => i.name);
    expect(names).toEqual([...names].sort());
    expect(r.items[0]).not.toHaveProperty("content");
    expect(r.items.map((i) => i.category)).toContain("non_disclosure_agreement");
  });

  test("get_template answers the content; an unknown id is NotFound", async () => {
    const [first] = (await t.callOk("contractservice.list_templates")).items;
    const r = await t.callOk("contractservice.get_template", { template_id: first?.sid ?? "" });
    expect(r.content).toBe(listTemplates().find((f) => f.key === r.category)?.body);
    const err = errorOf(await t.call("contractservice.get_template", { template_id: "nope" }));
    expect(err).toMatchObject({ code: -32003, data: { type: "ContractError", variant: "NotFound" } });
  });
});

describe("registration contracts (anonymous)", () => {
  test("get_required_contracts lists the active contracts required for the entity type, with bodies", async () => {
    const resident = await t.callOk("contractservice.get_required_contracts", { entity_type: "resident" });
    expect(keys(resident.items)).toEqual(["digital_residency", "privacy_policy", "terms_of_service"]);
    expect(resident.items[0]?.content).toContain("# Digital Residency Agreement");
    const company = await t.callOk("contractservice.get_required_contracts", { entity_type: "company" });
    expect(keys(company.items)).toEqual([
      "company_articles",
      "cooperative_charter",
      "privacy_policy",
      "terms_of_service",
    ]);
  });

  test("an inactive version or one not yet in force is not listed", async () => {
    await sql(
      t,
      `update "registration_contract" set effective_from = '2030-01-01' where category_key = 'privacy_policy'`,
    );
    await sql(t, `update "registration_contract" set is_active = false where category_key = 'digital_residency'`);
    try {
      const r = await t.callOk("contractservice.get_required_contracts", { entity_type: "resident" });
      expect(keys(r.items)).toEqual(["terms_of_service"]);
      const err = errorOf(
        await t.call("contractservice.get_required_contract", {
          entity_type: "resident",
          category_str: "privacy_policy",
        }),
      );
      expect(err.data).toMatchObject({ variant: "NotFound" });
    } finally {
      await sql(t, `update "registration_contract" set effective_from = null, is_active = true`);
    }
  });

  test("get_required_contract answers one contract by its category key, with body and hash", async () => {
    const r = await t.callOk("contractservice.get_required_contract", {
      entity_type: "resident",
      category_str: "terms_of_service",
    });
    const file = listTemplates().find((f) => f.key === "terms_of_service");
    expect(r).toMatchObject({
      category_key: "terms_of_service",
      category: "terms_of_service",
      version: file?.version,
      content: file?.body,
      content_hash: file?.contentHash,
      required_for: ["resident", "company"],
      is_active: true,
    });
  });

  test("a lifecycle template is reachable by key for companies only", async () => {
    const r = await t.callOk("contractservice.get_required_contract", {
      entity_type: "company",
      category_str: "share_transfer_agreement",
    });
    expect(r).toMatchObject({ category: null, required_for: [] });
    const err = errorOf(
      await t.call("contractservice.get_required_contract", {
        entity_type: "resident",
        category_str: "share_transfer_agreement",
      }),
    );
    expect(err).toMatchObject({ code: -32003, data: { type: "ContractError", variant: "NotFound" } });
  });

  test.each([
    ["an unknown category", "resident", "no_such_contract"],
    ["a contract not required for the entity type", "company", "digital_residency"],
  ])("get_required_contract with %s is NotFound", async (_what, entityType, category) => {
    const err = errorOf(
      await t.call("contractservice.get_required_contract", {
        entity_type: entityType as "resident" | "company",
        category_str: category,
      }),
    );
    expect(err).toMatchObject({ code: -32003, data: { type: "ContractError", variant: "NotFound" } });
  });

  test("get_required_contracts_meta omits the body and narrows by company type", async () => {
    const all = await t.callOk("contractservice.get_required_contracts_meta", { entity_type: "company" });
    expect(keys(all.items)).toHaveLength(4);
    expect(all.items[0]).not.toHaveProperty("content");
    const coop = await t.callOk("contractservice.get_required_contracts_meta", {
      entity_type: "company",
      company_type: "coop_standard_fzc",
    });
    expect(keys(coop.items)).toEqual(["cooperative_charter", "privacy_policy", "terms_of_service"]);
    const fzc = await t.callOk("contractservice.get_required_contracts_meta", {
      entity_type: "company",
      company_type: "growth_fzc",
    });
    expect(keys(fzc.items)).toEqual(["company_articles", "privacy_policy", "terms_of_service"]);
  });

  test("get_required_contracts_meta with an unknown company type is InvalidInput", async () => {
    const err = errorOf(
      await t.call("contractservice.get_required_contracts_meta", { entity_type: "company", company_type: "big_fzc" }),
    );
    expect(err).toMatchObject({ code: -32006, data: { type: "ContractError", variant: "InvalidInput" } });
  });

  test("list_all_contracts includes the lifecycle templates, with bodies", async () => {
    const r = await t.callOk("contractservice.list_all_contracts");
    expect(keys(r.items)).toEqual(REGISTRATION.map((f) => f.key));
    expect(keys(r.items)).toEqual(
      expect.arrayContaining([
        "articles_amendment",
        "share_transfer_agreement",
        "share_buyback_agreement",
        "member_expulsion_resolution",
        "upgrade_resolution",
      ]),
    );
    expect(r.items.every((i) => i.content.length > 0)).toBe(true);
  });

  test("list_all_contracts shows only the active version of a key", async () => {
    await sql(
      t,
      `insert into "registration_contract" (sid, category_key, category, version, title, content, content_hash,
       required_for, company_types, is_active, created_at, updated_at)
       values ('old-tos', 'terms_of_service', 'terms_of_service', '2025.1', 'Old', 'old', 'x', '{resident}', '{}', false, now(), now())`,
    );
    const r = await t.callOk("contractservice.list_all_contracts");
    expect(r.items.filter((i) => i.category_key === "terms_of_service").map((i) => i.version)).toEqual(["2026.1"]);
  });
});
