import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";

// Issue 13 item 5: User and PartnerConfiguration change only through business operations that keep their rules.
let t: TestApp;
let admin: Client;
let alice: Client;

beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  alice = await t.register("alice@example.org");
});

const actions = (action: string) => count(t, "admin_action", "action = ?", [action]);

describe("generic CRUD on users and partners is read-only, for administrators too", () => {
  test("user.set, user.delete and user.new-then-set are refused and change nothing", async () => {
    const before = await sql(t, `select * from "user" order by sid`);
    const edit = await admin.rpc("user.set", {
      data: JSON.stringify({ sid: alice.userId, email: "ALICE@example.org" }),
    });
    expect(edit.error).toMatchObject({ code: -32002 });
    const create = await admin.rpc("user.set", { data: JSON.stringify({ email: "nopassword@example.org" }) });
    expect(create.error?.code).toBeLessThan(0);
    const del = await admin.rpc("user.delete", { sid: admin.userId });
    expect(del.error).toMatchObject({ code: -32002 });
    expect(await sql(t, `select * from "user" order by sid`)).toEqual(before);
    expect((await admin.rpc("user.get", { sid: alice.userId })).result.email).toBe("alice@example.org");
  });

  test("partnerconfiguration.set cannot reactivate a partner or change its settings", async () => {
    const p = (await admin.rpc("partnerservice.create_partner", { name: "Acme" })).result;
    await admin.rpc("partnerservice.deactivate_partner", { partner_id: p.partner_id });
    const r = await admin.rpc("partnerconfiguration.set", {
      data: JSON.stringify({ sid: p.partner_id, name: "Other" }),
    });
    expect(r.error).toMatchObject({ code: -32002 });
    const [row] = await sql(t, "select name, is_active from partner_configuration where sid = ?", [p.partner_id]);
    expect(row).toEqual({ name: "Acme", is_active: false });
  });
});

describe("adminservice.set_administrator", () => {
  test("promotes and demotes, each an AdminAction; the roles come back", async () => {
    const up = await admin.rpc("adminservice.set_administrator", { user_id: alice.userId, administrator: true });
    expect(up.result).toMatchObject({ user_id: alice.userId, roles: ["user", "admin"] });
    const down = await admin.rpc("adminservice.set_administrator", { user_id: alice.userId, administrator: false });
    expect(down.result.roles).toEqual(["user"]);
    expect(await actions("grant_admin")).toBe(1);
    expect(await actions("revoke_admin")).toBe(1);
  });

  test("the last administrator can never be demoted, not even by itself", async () => {
    const r = await admin.rpc("adminservice.set_administrator", { user_id: admin.userId, administrator: false });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const [row] = await sql(t, `select roles from "user" where sid = ?`, [admin.userId]);
    expect(row?.roles).toContain("admin");
    expect(await actions("revoke_admin")).toBe(0);
  });

  test("two administrators demoting each other at once leave one", async () => {
    await admin.rpc("adminservice.set_administrator", { user_id: alice.userId, administrator: true });
    const [a, b] = await Promise.all([
      admin.rpc("adminservice.set_administrator", { user_id: alice.userId, administrator: false }),
      alice.rpc("adminservice.set_administrator", { user_id: admin.userId, administrator: false }),
    ]);
    expect([a, b].filter((r) => r.result)).toHaveLength(1);
    expect(await count(t, "user", "'admin' = any(roles)")).toBe(1);
  });

  test("a plain user gets AdminOnly", async () => {
    const r = await alice.rpc("adminservice.set_administrator", { user_id: alice.userId, administrator: true });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
  });
});

describe("partnerservice.reactivate_partner", () => {
  test("a deactivated partner comes back with fresh credentials; the old ones never work again", async () => {
    const p = (await admin.rpc("partnerservice.create_partner", { name: "Acme" })).result;
    await admin.rpc("partnerservice.deactivate_partner", { partner_id: p.partner_id });
    const back = await admin.rpc("partnerservice.reactivate_partner", { partner_id: p.partner_id });
    expect(back.result).toMatchObject({ partner_id: p.partner_id, client_id: p.client_id, is_active: true });
    expect(back.result.client_secret).not.toBe(p.client_secret);
    const generate = (secret: string, password: string) =>
      t.rpc("apikeyservice.generate", { client_id: p.client_id, client_secret: secret, access_password: password });
    expect((await generate(p.client_secret, p.access_password)).error?.data.variant).toBe("InvalidCredentials");
    expect((await generate(back.result.client_secret, back.result.access_password)).result.api_key).toMatch(/^fz_r_/);
    expect(await actions("reactivate_partner")).toBe(1);
  });

  test("an active partner is InvalidState", async () => {
    const p = (await admin.rpc("partnerservice.create_partner", { name: "Acme" })).result;
    const r = await admin.rpc("partnerservice.reactivate_partner", { partner_id: p.partner_id });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
  });
});
