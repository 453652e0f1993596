import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, startFinanceApp } from "../support/entities.ts";
import { refusedNoWrite, sql } from "../support/helpers.ts";

let t: TestApp;
let admin: Client;
let owner: Client;
beforeAll(async () => {
  t = await startFinanceApp();
  admin = await t.admin();
  owner = await t.register("licence-owner@example.org");
});

const LICENSE = {
  license_number: " LIC-001 ",
  license_type: "trading",
  issued_at: "2026-01-01T00:00:00Z",
  expires_at: "2027-01-01T00:00:00.000Z",
  granted_by: "someone-else@example.org",
};
const STORED = {
  license_number: "LIC-001",
  license_type: "trading",
  issued_at: "2026-01-01T00:00:00.000Z",
  expires_at: "2027-01-01T00:00:00.000Z",
  granted_by: "admin@example.org",
};
const grant = (id: string, license: Record<string, unknown> = LICENSE, as = admin) =>
  as.rpc("adminservice.grant_license", { company_id: id, license });
const revoke = (id: string, reason = "breach of terms", as = admin) =>
  as.rpc("adminservice.revoke_license", { company_id: id, reason });
const licenseOf = async (id: string) =>
  (await sql(t, `select license from "zone_company" where company_id = ?`, [id]))[0]?.license;
const parsed = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
const writes = (id: string) => async () => ({
  company: (await sql(t, `select * from "zone_company" where company_id = ?`, [id]))[0],
  actions: await sql(t, `select * from "admin_action" where target_id = ?`, [id]),
});
const actions = (id: string) =>
  sql(t, `select action, target_type, details from "admin_action" where target_id = ? order by sid`, [id]);

describe("adminservice.grant_license", () => {
  test("sets the licence with granted_by the administrator (whatever the param says) and writes an AdminAction", async () => {
    const id = await insertCompany(t, owner.userId);
    const r = await grant(id);
    expect(r.result).toEqual({
      company_id: id,
      name: expect.any(String),
      license: STORED,
      admin_action_id: expect.any(String),
    });
    expect(parsed(await licenseOf(id))).toEqual(STORED);
    const rows = await actions(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "grant_license", target_type: "company" });
    expect(JSON.parse(rows[0].details)).toEqual({ license: STORED, replaced: null });
  });

  test("a second grant replaces the licence and records the one it replaced", async () => {
    const id = await insertCompany(t, owner.userId);
    await grant(id);
    const next = { ...LICENSE, license_number: "LIC-002", expires_at: null };
    const r = await grant(id, next);
    expect(r.result.license).toEqual({ ...STORED, license_number: "LIC-002", expires_at: null });
    expect(parsed(await licenseOf(id))).toMatchObject({ license_number: "LIC-002", expires_at: null });
    const rows = await actions(id);
    expect(rows.map((a) => a.action)).toEqual(["grant_license", "grant_license"]);
    expect(JSON.parse(rows[1].details).replaced).toEqual(STORED);
  });

  test.each([
    ["a blank number", { license_number: "  " }],
    ["a blank type", { license_type: " " }],
    ["an expiry equal to the issue", { expires_at: "2026-01-01T00:00:00.000Z" }],
    ["an expiry before the issue", { expires_at: "2025-12-31T23:59:59.999Z" }],
  ])("%s is InvalidInput and nothing is written", async (_name, change) => {
    const id = await insertCompany(t, owner.userId);
    const err = { type: "AdminError", variant: "InvalidInput" };
    await refusedNoWrite(writes(id), () => grant(id, { ...LICENSE, ...change }), -32006, err);
  });

  test("an expiry one millisecond after the issue is accepted", async () => {
    const id = await insertCompany(t, owner.userId);
    const r = await grant(id, { ...LICENSE, expires_at: "2026-01-01T00:00:00.001Z" });
    expect(r.result.license.expires_at).toBe("2026-01-01T00:00:00.001Z");
  });

  test("a voided company is InvalidState; an unknown one NotFound; a plain user AdminOnly; nothing is written", async () => {
    const voided = await insertCompany(t, owner.userId, { status: "voided", void_reason: "x" });
    await refusedNoWrite(writes(voided), () => grant(voided), -32005, { type: "AdminError", variant: "InvalidState" });
    const unknown = await grant("FZ-2026-Y999999");
    expect(unknown.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    const id = await insertCompany(t, owner.userId);
    const byOwner = await grant(id, LICENSE, owner);
    expect(byOwner.error?.data).toMatchObject({ variant: "AdminOnly" });
    expect(await licenseOf(id)).toBeNull();
    expect(await actions(id)).toEqual([]);
  });

  test("a suspended company may be licensed", async () => {
    const id = await insertCompany(t, owner.userId, { status: "suspended" });
    expect((await grant(id)).result.license).toEqual(STORED);
  });
});

describe("adminservice.revoke_license", () => {
  test("clears the licence and writes an AdminAction with the reason and the licence revoked", async () => {
    const id = await insertCompany(t, owner.userId);
    await grant(id);
    const r = await revoke(id, "  breach  ");
    expect(r.result).toEqual({
      company_id: id,
      name: expect.any(String),
      license: null,
      admin_action_id: expect.any(String),
    });
    expect(await licenseOf(id)).toBeNull();
    const rows = await actions(id);
    expect(rows.map((a) => a.action)).toEqual(["grant_license", "revoke_license"]);
    expect(JSON.parse(rows[1].details)).toEqual({ reason: "breach", revoked: STORED });
  });

  test("an unlicensed company is InvalidState (also revoking twice); nothing is written", async () => {
    const id = await insertCompany(t, owner.userId);
    const err = { type: "AdminError", variant: "InvalidState" };
    await refusedNoWrite(writes(id), () => revoke(id), -32005, err);
    await grant(id);
    await revoke(id);
    await refusedNoWrite(writes(id), () => revoke(id), -32005, err);
  });

  test("a blank reason is InvalidInput; unknown NotFound; a plain user AdminOnly; the licence stays", async () => {
    const id = await insertCompany(t, owner.userId);
    await grant(id);
    await refusedNoWrite(writes(id), () => revoke(id, "  "), -32006, { type: "AdminError", variant: "InvalidInput" });
    expect((await revoke("FZ-2026-Y999999")).error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect((await revoke(id, "mine", owner)).error?.data).toMatchObject({ variant: "AdminOnly" });
    expect(parsed(await licenseOf(id))).toEqual(STORED);
  });

  test("a voided company's licence can still be revoked", async () => {
    const id = await insertCompany(t, owner.userId);
    await grant(id);
    await admin.rpc("adminservice.void_company", { company_id: id, reason: "fraud" });
    expect((await revoke(id)).result.license).toBeNull();
  });
});
