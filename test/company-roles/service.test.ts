import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, insertProxy, insertRole, member, person, startFinanceApp } from "../support/entities.ts";
import { errorOf, sql } from "../support/helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const epoch = (iso: string) => Date.parse(iso) / 1000;
const FROM = "2026-03-01T00:00:00.000Z";
const TO = "2026-06-01T00:00:00.000Z";

const byCompany = (c: Client, companyId: string, asOf = 0) =>
  c.call("companyroleservice.list_by_company", { company_id: companyId, as_of_epoch: asOf });
const byResident = (c: Client, subjectId: string, asOf = 0) =>
  c.call("companyroleservice.list_by_resident", { subject_id: subjectId, as_of_epoch: asOf });

async function expectError(reply: Promise<unknown>, code: number, variant: string) {
  const err = errorOf((await reply) as never);
  expect(err.code, JSON.stringify(err)).toBe(code);
  expect(err.data).toMatchObject({ type: "CompanyRoleError", variant });
}

async function staffed() {
  const owner = await t.register(`role-owner${Math.random()}@example.org`);
  const company = await insertCompany(t, owner.userId);
  const director = await person(t, company, "director");
  return { owner, company, director };
}

describe("companyroleservice.list_by_company", () => {
  test("a member sees the roles in effect now, newest first, with names resolved and subject_id blanked", async () => {
    const { company, director } = await staffed();
    const holder = await member(t);
    await insertRole(t, company, holder.resident, "shareholder", {
      valid_from: new Date(FROM),
      holder_name: "Stale Stored Name",
    });
    await insertRole(t, company, "FZ-2026-RA999999", "shareholder", { valid_from: new Date(TO) });
    await sql(t, `update digital_resident set first_name = 'Grace', last_name = 'Hopper' where resident_id = ?`, [
      holder.resident,
    ]);
    const [ext] = await sql<{ external_id: string }>(
      t,
      "select external_id from digital_resident where resident_id = ?",
      [holder.resident],
    );
    const { items } = await director.client.callOk("companyroleservice.list_by_company", {
      company_id: company,
      as_of_epoch: 0,
    });
    expect(items.map((i) => i.valid_from)).toEqual([TO, FROM, "2026-01-01T00:00:00.000Z"]);
    expect(items[0]).toMatchObject({ subject_id: "FZ-2026-RA999999", holder_name: null, holder_external_id: null });
    expect(items[1]).toMatchObject({
      company_id: company,
      subject_id: null,
      role: "shareholder",
      valid_to: null,
      classification_scope: ["shareholder"],
      holder_name: "Grace Hopper",
      holder_external_id: ext?.external_id,
    });
    expect(items[2]).toMatchObject({ role: "director", subject_id: null, holder_name: "Ada Lovelace" });
  });

  test("valid_from is inclusive and valid_to exclusive at the instant; future and past roles are left out", async () => {
    const { company, director } = await staffed();
    const holder = await member(t);
    await insertRole(t, company, holder.resident, "shareholder", {
      valid_from: new Date(FROM),
      valid_to: new Date(TO),
    });
    const shareholders = async (asOf: number) =>
      (
        await director.client.callOk("companyroleservice.list_by_company", { company_id: company, as_of_epoch: asOf })
      ).items.filter((i) => i.role === "shareholder").length;
    expect(await shareholders(epoch(FROM) - 1)).toBe(0);
    expect(await shareholders(epoch(FROM))).toBe(1);
    expect(await shareholders(epoch(TO) - 1)).toBe(1);
    expect(await shareholders(epoch(TO))).toBe(0);
    expect(await shareholders(0)).toBe(0);
    const first = await director.client.callOk("companyroleservice.list_by_company", {
      company_id: company,
      as_of_epoch: epoch(FROM),
    });
    expect(first.items.find((i) => i.role === "shareholder")?.valid_to).toBe(TO);
  });

  test("an anonymous holder's name is masked; the opaque id stays", async () => {
    const { company, director } = await staffed();
    const holder = await member(t, { anonymity_enabled: true, first_name: "Secret" });
    await insertRole(t, company, holder.resident, "shareholder", { valid_from: new Date(FROM) });
    const { items } = await director.client.callOk("companyroleservice.list_by_company", {
      company_id: company,
      as_of_epoch: 0,
    });
    const row = items.find((i) => i.role === "shareholder");
    expect(row).toMatchObject({ subject_id: null, holder_name: null });
    expect(row?.holder_external_id).toMatch(/^FZX-/);
    expect(JSON.stringify(items)).not.toContain("Secret");
  });

  test("a corporate shareholder shows the company's name; an anonymous company is masked", async () => {
    const { owner, company, director } = await staffed();
    const corp = await insertCompany(t, owner.userId, { name: "Holding Corp FZC" });
    const hidden = await insertCompany(t, owner.userId, { name: "Hidden Corp FZC", anonymity_enabled: true });
    await insertRole(t, company, corp, "shareholder", { valid_from: new Date(FROM) });
    await insertRole(t, company, hidden, "shareholder", { valid_from: new Date(TO) });
    const { items } = await director.client.callOk("companyroleservice.list_by_company", {
      company_id: company,
      as_of_epoch: 0,
    });
    expect(items[0]).toMatchObject({ subject_id: null, holder_name: null });
    expect(items[1]).toMatchObject({ subject_id: null, holder_name: "Holding Corp FZC" });
  });

  test("the owner and an administrator's session may list", async () => {
    const { owner, company } = await staffed();
    expect(
      (await owner.callOk("companyroleservice.list_by_company", { company_id: company, as_of_epoch: 0 })).items,
    ).toHaveLength(1);
    const admin = await t.admin();
    expect(
      (await admin.callOk("companyroleservice.list_by_company", { company_id: company, as_of_epoch: 0 })).items,
    ).toHaveLength(1);
    await expectError(byCompany(admin, "FZ-2026-Y999999"), -32003, "NotFound");
  });

  test("a non-member, a member of another company, a past member and a matching holder id get NotFound", async () => {
    const { company } = await staffed();
    const stranger = await member(t);
    await expectError(byCompany(stranger.client, company), -32003, "NotFound");
    const elsewhere = await staffed();
    await expectError(byCompany(elsewhere.director.client, company), -32003, "NotFound");
    const past = await person(t, company, "shareholder", { valid_to: new Date("2026-02-01T00:00:00.000Z") });
    await expectError(byCompany(past.client, company), -32003, "NotFound");
    // holder_name / holder_external_id are display only: a row naming the caller's ids there grants nothing.
    const [ext] = await sql<{ external_id: string }>(
      t,
      "select external_id from digital_resident where resident_id = ?",
      [stranger.resident],
    );
    await insertRole(t, company, "FZ-2026-RA999998", "director", {
      holder_external_id: ext?.external_id,
      holder_name: "Ada Lovelace",
    });
    await expectError(byCompany(stranger.client, company), -32003, "NotFound");
    await expectError(byCompany(stranger.client, "FZ-2026-Y999999"), -32003, "NotFound");
  });

  test("a negative as_of_epoch is InvalidInput", async () => {
    const { company, director } = await staffed();
    await expectError(byCompany(director.client, company, -1), -32006, "InvalidInput");
  });
});

describe("companyroleservice.list_by_resident", () => {
  test("the owner sees its resident's roles across companies at the instant; a proxy holder too", async () => {
    const { company, director } = await staffed();
    const other = await staffed();
    await insertRole(t, other.company, director.resident, "shareholder", {
      valid_from: new Date(FROM),
      valid_to: new Date(TO),
    });
    const now = await director.client.callOk("companyroleservice.list_by_resident", {
      subject_id: director.resident,
      as_of_epoch: 0,
    });
    expect(now.items.map((i) => [i.company_id, i.role])).toEqual([[company, "director"]]);
    const then = await director.client.callOk("companyroleservice.list_by_resident", {
      subject_id: director.resident,
      as_of_epoch: epoch(FROM),
    });
    expect(then.items.map((i) => [i.company_id, i.role])).toEqual([
      [other.company, "shareholder"],
      [company, "director"],
    ]);
    expect(then.items[0]).toMatchObject({ subject_id: null, holder_name: "Ada Lovelace" });
    const proxy = await member(t);
    await insertProxy(t, proxy.resident, director.resident);
    expect(
      (
        await proxy.client.callOk("companyroleservice.list_by_resident", {
          subject_id: director.resident,
          as_of_epoch: 0,
        })
      ).items,
    ).toHaveLength(1);
  });

  test("a company's owner lists its corporate shareholdings; others get NotFound", async () => {
    const { owner, company } = await staffed();
    const corp = await insertCompany(t, owner.userId);
    await insertRole(t, company, corp, "shareholder", { valid_from: new Date(FROM) });
    const { items } = await owner.callOk("companyroleservice.list_by_resident", { subject_id: corp, as_of_epoch: 0 });
    expect(items.map((i) => [i.company_id, i.role])).toEqual([[company, "shareholder"]]);
    const stranger = await member(t);
    await expectError(byResident(stranger.client, corp), -32003, "NotFound");
    await expectError(byResident(owner, "FZ-2026-Y999999"), -32003, "NotFound");
  });

  test("another user's resident, an unknown resident and a negative instant are refused", async () => {
    const { director } = await staffed();
    const stranger = await member(t);
    await expectError(byResident(stranger.client, director.resident), -32003, "NotFound");
    await expectError(byResident(stranger.client, "FZ-2026-RA999999"), -32003, "NotFound");
    await expectError(byResident(director.client, director.resident, -5), -32006, "InvalidInput");
  });
});
