import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, insertProxy, insertResident, member, person, startFinanceApp } from "../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../support/helpers.ts";

let t: TestApp;
let terms: string;

beforeAll(async () => {
  t = await startFinanceApp({ contractTemplateSync: true, trustProxy: true });
  terms = await contractSid("terms_of_service");
});
afterAll(() => t.close());

async function contractSid(key: string): Promise<string> {
  const [row] = await sql(t, `select sid from "registration_contract" where category_key = ? and is_active`, [key]);
  return row.sid;
}
const sidOf = async (table: string, column: string, id: string) =>
  (await sql(t, `select sid from "${table}" where ${column} = ?`, [id]))[0].sid as string;
const residentSid = (id: string) => sidOf("digital_resident", "resident_id", id);
const companySid = (id: string) => sidOf("zone_company", "company_id", id);

const signatures = () => sql(t, `select * from "contract_signature" order by sid`);
const audits = (userId: string) =>
  sql(t, `select action, target_ref, target_type, allowed from "user_audit_log" where subject_id = ? order by sid`, [
    userId,
  ]);

function sign(c: Client, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.rpc(
    "contractservice.sign_contract",
    { contract_id: terms, entity_type: "user", entity_name: "Ada Lovelace", entity_id: "", ...params },
    { authorization: `Bearer ${c.token}`, ...headers },
  );
}

const refused = async (c: Client, params: Record<string, unknown>, code: number, variant: string | null) =>
  refusedNoWrite(
    signatures,
    async () => {
      const r = await sign(c, params);
      return r.error ? { error: r.error } : { result: r.result };
    },
    code,
    variant === null ? null : { type: "SignError", variant },
  );

describe("sign_contract for the user itself", () => {
  test("records the version, the client address and a random receipt, audited sign_contract", async () => {
    const c = await t.register("signer1@example.org");
    const r = await sign(c, {}, { "x-forwarded-for": "203.0.113.9" });
    expect(r.result).toMatchObject({
      contract_id: terms,
      contract_version: "2026.1",
      entity_type: "user",
      entity_name: "Ada Lovelace",
      entity_id: "",
      signed_at: "2026-11-23T10:00:00.000Z",
    });
    expect(r.result.receipt_id).toMatch(/^fzr_[A-Za-z0-9_-]{32}$/);
    const [row] = await sql(t, `select * from "contract_signature" where sid = ?`, [r.result.sid]);
    expect(row).toMatchObject({ user_id: c.userId, ip_address: "203.0.113.9", receipt_id: r.result.receipt_id });
    expect(await audits(c.userId)).toEqual([
      { action: "sign_contract", target_ref: terms, target_type: "contract", allowed: true },
    ]);
  });

  test("receipts differ between signatures", async () => {
    const a = await sign(await t.register("signer2@example.org"), {});
    const b = await sign(await t.register("signer3@example.org"), {});
    expect(a.result.receipt_id).not.toBe(b.result.receipt_id);
  });

  test("signing the same version again answers the existing signature and writes nothing", async () => {
    const c = await t.register("signer4@example.org");
    const first = await sign(c, {});
    const before = await signatures();
    const again = await sign(c, { entity_name: "Another Name" });
    expect(again.result).toEqual(first.result);
    expect(await signatures()).toEqual(before);
  });

  test("two concurrent signings of the same version give one signature", async () => {
    const c = await t.register("signer-race@example.org");
    const [a, b] = await Promise.all([sign(c, {}), sign(c, {})]);
    expect(a.result.receipt_id).toBe(b.result.receipt_id);
    expect(await sql(t, `select sid from "contract_signature" where user_id = ?`, [c.userId])).toHaveLength(1);
  });

  test("a new version is signed anew; the old version is no longer offered (NotFound)", async () => {
    const c = await t.register("signer5@example.org");
    const old = await contractSid("privacy_policy");
    await sign(c, { contract_id: old });
    await sql(t, `update "registration_contract" set is_active = false where sid = ?`, [old]);
    await sql(
      t,
      `insert into "registration_contract" (sid, category_key, category, version, title, content, content_hash,
       required_for, company_types, is_active, created_at, updated_at)
       select 'privacy-v2', category_key, category, '2026.2', title, content || ' v2', 'h', required_for,
       company_types, true, now(), now() from "registration_contract" where sid = ?`,
      [old],
    );
    try {
      const r = await sign(c, { contract_id: "privacy-v2" });
      expect(r.result).toMatchObject({ contract_id: "privacy-v2", contract_version: "2026.2" });
      await refused(c, { contract_id: old }, -32003, "NotFound");
    } finally {
      await sql(t, `delete from "registration_contract" where sid = 'privacy-v2'`);
      await sql(t, `update "registration_contract" set is_active = true where sid = ?`, [old]);
    }
  });

  test("a contract not yet in force is NotFound", async () => {
    const c = await t.register("signer6@example.org");
    await sql(t, `update "registration_contract" set effective_from = '2030-01-01' where sid = ?`, [terms]);
    try {
      await refused(c, {}, -32003, "NotFound");
    } finally {
      await sql(t, `update "registration_contract" set effective_from = null where sid = ?`, [terms]);
    }
  });

  test("an unknown contract is NotFound, and the denial is audited", async () => {
    const c = await t.register("signer7@example.org");
    await refused(c, { contract_id: "no-such-contract" }, -32003, "NotFound");
    expect(await audits(c.userId)).toEqual([
      { action: "sign_contract", target_ref: "no-such-contract", target_type: "contract", allowed: false },
    ]);
  });

  test("a user_id naming another user is -32002", async () => {
    const c = await t.register("signer8@example.org");
    const other = await t.register("signer9@example.org");
    await refused(c, { user_id: other.userId }, -32002, null);
  });

  test("an anonymous caller is -32001", async () => {
    const r = await t.rpc("contractservice.sign_contract", {
      user_id: "u",
      contract_id: terms,
      entity_type: "user",
      entity_name: "X",
      entity_id: "",
    });
    expect(errorOf(r).code).toBe(-32001);
  });

  test.each([
    ["an unknown entity_type", { entity_type: "partner" }],
    ["an entity_id for a user", { entity_id: "something" }],
    ["no entity_id for a resident", { entity_type: "digital_resident", entity_id: " " }],
    ["a blank entity_name", { entity_name: "  " }],
    ["an entity_name over 200 characters", { entity_name: "x".repeat(201) }],
  ])("%s is InvalidInput", async (_what, params) => {
    await refused(
      await t.register(`bad${Math.random().toString(36).slice(2)}@example.org`),
      params,
      -32006,
      "InvalidInput",
    );
  });
});

describe("sign_contract for a resident", () => {
  test("the owner signs for its resident", async () => {
    const m = await member(t);
    const sid = await residentSid(m.resident);
    const r = await sign(m.client, {
      entity_type: "digital_resident",
      entity_id: sid,
      contract_id: await contractSid("digital_residency"),
    });
    expect(r.result).toMatchObject({ entity_type: "digital_resident", entity_id: sid });
  });

  test("a holder of an effective proxy signs for the resident", async () => {
    const principal = await member(t);
    const target = await insertResident(t, null);
    await insertProxy(t, principal.resident, target);
    const r = await sign(principal.client, { entity_type: "digital_resident", entity_id: await residentSid(target) });
    expect(r.result).toMatchObject({ entity_type: "digital_resident" });
  });

  test("a revoked proxy, another user's resident or an unknown sid is NotOwner", async () => {
    const principal = await member(t);
    const target = await insertResident(t, null);
    await insertProxy(t, principal.resident, target, { status: "revoked" });
    const stranger = await member(t);
    await refused(
      principal.client,
      { entity_type: "digital_resident", entity_id: await residentSid(target) },
      -32002,
      "NotOwner",
    );
    await refused(
      principal.client,
      { entity_type: "digital_resident", entity_id: await residentSid(stranger.resident) },
      -32002,
      "NotOwner",
    );
    await refused(principal.client, { entity_type: "digital_resident", entity_id: "no-such-sid" }, -32002, "NotOwner");
  });

  test("a contract required only for companies does not fit a resident (InvalidInput)", async () => {
    const m = await member(t);
    const params = {
      entity_type: "digital_resident",
      entity_id: await residentSid(m.resident),
      contract_id: await contractSid("company_articles"),
    };
    await refused(m.client, params, -32006, "InvalidInput");
  });
});

describe("sign_contract for a company", () => {
  test("the owner and a director sign; a shareholder is NotOwner", async () => {
    const owner = await t.register("company-owner1@example.org");
    const company = await insertCompany(t, owner.userId);
    const sid = await companySid(company);
    const articles = await contractSid("company_articles");
    const own = await sign(owner, { entity_type: "company", entity_id: sid, contract_id: articles });
    expect(own.result).toMatchObject({ entity_type: "company", entity_id: sid, contract_version: "2026.1" });
    const director = await person(t, company, "director");
    const byDirector = await sign(director.client, { entity_type: "company", entity_id: sid, contract_id: terms });
    expect(byDirector.result).toMatchObject({ entity_type: "company", entity_id: sid });
    const shareholder = await person(t, company, "shareholder");
    await refused(
      shareholder.client,
      { entity_type: "company", entity_id: sid, contract_id: terms },
      -32002,
      "NotOwner",
    );
  });

  test("a former director (closed role) is NotOwner", async () => {
    const owner = await t.register("company-owner2@example.org");
    const company = await insertCompany(t, owner.userId);
    const former = await person(t, company, "director", { valid_to: new Date("2026-06-01T00:00:00.000Z") });
    await refused(former.client, { entity_type: "company", entity_id: await companySid(company) }, -32002, "NotOwner");
  });

  test("a company still in formation may sign", async () => {
    const owner = await t.register("company-forming@example.org");
    const company = await insertCompany(t, owner.userId, { status: "draft" });
    const r = await sign(owner, { entity_type: "company", entity_id: await companySid(company) });
    expect(r.result).toMatchObject({ entity_type: "company" });
  });

  test.each(["voided", "suspended"])("a %s company is InvalidState", async (status) => {
    const owner = await t.register(`company-${status}@example.org`);
    const company = await insertCompany(t, owner.userId, { status });
    const params = { entity_type: "company", entity_id: await companySid(company) };
    await refused(owner, params, -32005, "InvalidState");
    expect(errorOf(await sign(owner, params)).data).toMatchObject({ status });
  });

  test("a company signs only the formation document of its type and no resident contract (InvalidInput)", async () => {
    const owner = await t.register("company-owner3@example.org");
    const coop = await companySid(await insertCompany(t, owner.userId, { company_type: "coop_standard_fzc" }));
    await refused(
      owner,
      { entity_type: "company", entity_id: coop, contract_id: await contractSid("company_articles") },
      -32006,
      "InvalidInput",
    );
    await refused(
      owner,
      { entity_type: "company", entity_id: coop, contract_id: await contractSid("digital_residency") },
      -32006,
      "InvalidInput",
    );
    const charter = await sign(owner, {
      entity_type: "company",
      entity_id: coop,
      contract_id: await contractSid("cooperative_charter"),
    });
    expect(charter.result).toMatchObject({ entity_type: "company" });
  });
});

describe("get_signatures", () => {
  test("lists the caller's signatures newest first, and none of others'", async () => {
    const c = await t.register("lister@example.org");
    await sign(c, {});
    t.clock.advance(60);
    await sign(c, { contract_id: await contractSid("privacy_policy") });
    await sign(await t.register("lister-other@example.org"), {});
    const r = await c.callOk("contractservice.get_signatures", {});
    expect(r.items.map((i) => i.contract_id)).toEqual([await contractSid("privacy_policy"), terms]);
    expect(r.items[0]?.receipt_id).toMatch(/^fzr_/);
  });

  test("a user_id naming another user is -32002", async () => {
    const c = await t.register("lister2@example.org");
    const other = await t.register("lister3@example.org");
    const err = errorOf(await c.call("contractservice.get_signatures", { user_id: other.userId }));
    expect(err.code).toBe(-32002);
  });
});
