import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";
import { limits } from "./support.ts";

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
});

async function createPartner(params: Record<string, unknown> = {}) {
  const r = await admin.rpc("partnerservice.create_partner", { name: "Acme Residency", ...params });
  if (!r.result) throw new Error(JSON.stringify(r.body));
  return r.result;
}
const generate = (p: { client_id: string; client_secret: string; access_password: string }, changes = {}) =>
  t.rpc("apikeyservice.generate", {
    client_id: p.client_id,
    client_secret: p.client_secret,
    access_password: p.access_password,
    ...changes,
  });
const withKey = (key: string, method: string, params: unknown = {}) => t.rpc(method, params, { "x-api-key": key });
const adminActions = () =>
  sql(t, `select admin_email, action, target_type, target_id, details from "admin_action" order by sid`);

describe("partner administration", () => {
  test("create_partner shows the credentials once, stores them hashed, makes a wallet user and an AdminAction", async () => {
    const p = await createPartner({ allow_company_creation: true, discount_profile: "partner" });
    expect(p).toMatchObject({
      name: "Acme Residency",
      client_id: expect.stringMatching(/^fzpc_/),
      client_secret: expect.stringMatching(/^fzps_/),
      access_password: expect.stringMatching(/^[a-z2-9]{24}$/),
      allow_company_creation: true,
      discount_profile: "partner",
      is_active: true,
      active_key_count: 0,
      credentials_rotated_at: null,
    });
    const row = (await sql(t, `select * from "partner_configuration"`))[0] ?? {};
    expect(row.client_secret_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row)).not.toContain(p.client_secret);
    expect(JSON.stringify(row)).not.toContain(p.access_password);
    const wallet = (await sql(t, `select partner_id, roles from "user" where sid = ?`, [p.wallet_user_id]))[0];
    expect(wallet).toEqual({ partner_id: p.partner_id, roles: ["user"] });
    expect(await adminActions()).toEqual([
      {
        admin_email: "admin@example.org",
        action: "create_partner",
        target_type: "partner",
        target_id: p.partner_id,
        details: JSON.stringify({ name: "Acme Residency", allow_company_creation: true, discount_profile: "partner" }),
      },
    ]);
  });

  test("a plain user, and an administrator's API key, are AdminOnly and write nothing", async () => {
    const ada = await t.register("ada@example.org");
    const r = await ada.rpc("partnerservice.create_partner", { name: "Evil" });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "PartnerError", variant: "AdminOnly" } });
    const adminKey = (
      await admin.rpc("apikeyservice.generate_personal", { name: "k", password: "correct horse battery staple 42" })
    ).result.api_key;
    const viaKey = await withKey(adminKey, "partnerservice.create_partner", { name: "Evil" });
    expect(viaKey.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect(await count(t, "partner_configuration")).toBe(0);
    expect(await count(t, "admin_action")).toBe(0);
  });

  test("a name in use (any case) is AlreadyExists and an unknown discount profile InvalidInput", async () => {
    await createPartner();
    const dup = await admin.rpc("partnerservice.create_partner", { name: "ACME residency" });
    expect(dup.error).toMatchObject({ code: -32005, data: { type: "PartnerError", variant: "AlreadyExists" } });
    const profile = await admin.rpc("partnerservice.create_partner", { name: "Other", discount_profile: "gold" });
    expect(profile.error).toMatchObject({ code: -32006, data: { type: "PartnerError", variant: "InvalidInput" } });
    expect(await count(t, "partner_configuration")).toBe(1);
    expect(await count(t, "user", "partner_id is not null")).toBe(1);
  });

  // Issue 29 item 6: names compare by their key (src/domain/name-key.ts), the display form is stored as given.
  test("a look-alike of a partner's name (zero-width or no-break space) is AlreadyExists", async () => {
    await createPartner({ name: "Harbour Software FZC" });
    for (const name of ["Harbour Software FZC\u200b", "Harbour\u00a0Software FZC", "ＨＡＲＢＯＵＲ software fzc"]) {
      const dup = await admin.rpc("partnerservice.create_partner", { name });
      expect(dup.error).toMatchObject({ code: -32005, data: { type: "PartnerError", variant: "AlreadyExists" } });
    }
    const blank = await admin.rpc("partnerservice.create_partner", { name: "\u200b\ufeff" });
    expect(blank.error).toMatchObject({ code: -32006, data: { type: "PartnerError", variant: "InvalidInput" } });
    expect(await count(t, "partner_configuration")).toBe(1);
    const other = await createPartner({ name: "Harbour\u00a0Softwares FZC" });
    expect(other.name).toBe("Harbour\u00a0Softwares FZC");
    expect(await sql(t, `select name, name_key from partner_configuration where sid = ?`, [other.partner_id])).toEqual([
      { name: "Harbour\u00a0Softwares FZC", name_key: "harbour softwares fzc" },
    ]);
  });

  test("list_partners shows every partner newest first, with its active keys and no secrets", async () => {
    const a = await createPartner({ name: "A" });
    t.clock.advance(1);
    await createPartner({ name: "B" });
    await generate(a);
    const r = await admin.rpc("partnerservice.list_partners", {});
    expect(r.result.items.map((p: { name: string }) => p.name)).toEqual(["B", "A"]);
    expect(r.result.items[1].active_key_count).toBe(1);
    expect(JSON.stringify(r.result)).not.toMatch(/client_secret|access_password/);
  });

  test("update_partner changes the flags of the partner and of its active keys, as an AdminAction", async () => {
    const p = await createPartner();
    const key = (await generate(p)).result;
    expect(key.allow_company_creation).toBe(false);
    t.clock.advance(1);
    const r = await admin.rpc("partnerservice.update_partner", {
      partner_id: p.partner_id,
      allow_company_creation: true,
    });
    expect(r.result).toMatchObject({ allow_company_creation: true, discount_profile: null });
    const row = (await sql(t, `select allow_company_creation from "api_key" where sid = ?`, [key.key_id]))[0];
    expect(row?.allow_company_creation).toBe(true);
    expect((await adminActions()).map((a) => a.action)).toEqual(["create_partner", "update_partner"]);
  });

  test("update_partner with an unknown profile is InvalidInput, an unknown partner NotFound", async () => {
    const p = await createPartner();
    const bad = await admin.rpc("partnerservice.update_partner", {
      partner_id: p.partner_id,
      discount_profile: "gold",
    });
    expect(bad.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const missing = await admin.rpc("partnerservice.update_partner", {
      partner_id: "nope",
      allow_company_creation: true,
    });
    expect(missing.error).toMatchObject({ code: -32003, data: { type: "PartnerError", variant: "NotFound" } });
    expect(await count(t, "admin_action")).toBe(1);
  });
});

describe("reseller keys", () => {
  test("generate issues an fz_r_ key tied to the partner that acts as its wallet user", async () => {
    const p = await createPartner({ allow_company_creation: true });
    const r = await generate(p);
    expect(r.result).toMatchObject({ prefix: "fz_r_", partner_id: p.partner_id, allow_company_creation: true });
    expect(r.result.api_key).toMatch(/^fz_r_/);
    const me = await withKey(r.result.api_key, "authservice.me");
    expect(me.result.user_id).toBe(p.wallet_user_id);
  });

  test("a reseller key sees records by the (user_id, partner_id) pair", async () => {
    const p = await createPartner();
    const key = (await generate(p)).result.api_key;
    const orm = t.app.runtime.orm;
    const mine = await insertRow(
      orm,
      "DigitalResident",
      residentValues(p.wallet_user_id, { partner_id: p.partner_id }),
    );
    await insertRow(orm, "DigitalResident", residentValues(p.wallet_user_id, { partner_id: null }));
    const r = await withKey(key, "digitalresident.list", {});
    expect(r.result.sids).toEqual([mine["sid"]]);
  });

  test("wrong secret, wrong password and unknown client id answer the same InvalidCredentials and issue nothing", async () => {
    const p = await createPartner();
    const answers = [
      await generate(p, { client_secret: "fzps_wrong" }),
      await generate(p, { access_password: "wrong" }),
      await generate(p, { client_id: "fzpc_unknown" }),
    ];
    for (const r of answers) {
      expect(r.error).toEqual(answers[0]?.error);
      expect(r.error).toMatchObject({ code: -32001, data: { type: "ApiKeyError", variant: "InvalidCredentials" } });
    }
    expect(await count(t, "api_key")).toBe(0);
  });

  test("failures per client_id are limited, then even the right credentials are RateLimited", async () => {
    t = await startTestApp({ rateLimits: limits({ perAccountFailures: 2 }) });
    admin = await t.admin();
    const p = await createPartner();
    await generate(p, { client_secret: "x" });
    await generate(p, { client_secret: "y" });
    const r = await generate(p);
    expect(r.error).toMatchObject({ code: -32007, data: { type: "ApiKeyError", variant: "RateLimited" } });
    expect(await count(t, "api_key")).toBe(0);
  });

  /** Three reseller keys of the partner, a second apart (the third retires the first). */
  async function threeKeys(p: Awaited<ReturnType<typeof createPartner>>) {
    const keys = [];
    for (let i = 0; i < 3; i++) {
      if (i > 0) t.clock.advance(1);
      keys.push((await generate(p)).result);
    }
    return keys;
  }

  test("a partner holds at most two active keys: a third revokes the oldest", async () => {
    const p = await createPartner();
    const [first, second, third] = await threeKeys(p);
    expect((await withKey(first.api_key, "authservice.me")).error).toMatchObject({ data: { variant: "KeyRevoked" } });
    for (const k of [second, third]) {
      expect((await withKey(k.api_key, "authservice.me")).result.user_id).toBe(p.wallet_user_id);
    }
  });

  test("every revocation writes revoke_api_key: the oldest key a third retires, deactivate_partner's (issue 29 item 16)", async () => {
    const p = await createPartner();
    const [first, second, third] = await threeKeys(p);
    const rows = () =>
      sql(
        t,
        `select target_ref, allowed, context::jsonb as context from user_audit_log where action = 'revoke_api_key' order by target_ref`,
      );
    expect(await rows()).toEqual([
      {
        target_ref: first.key_id,
        allowed: true,
        context: { reason: "retired by a newer reseller key", method: "apikeyservice.generate" },
      },
    ]);
    await admin.rpc("partnerservice.deactivate_partner", { partner_id: p.partner_id });
    const after = await rows();
    expect(after.map((r: { target_ref: string }) => r.target_ref).sort()).toEqual(
      [first.key_id, second.key_id, third.key_id].sort(),
    );
    expect(
      after.filter((r: { context: { method: string } }) => r.context.method === "partnerservice.deactivate_partner"),
    ).toHaveLength(2);
  });

  test("deactivate_partner stops its keys at once and refuses new ones (Suspended); repeating changes nothing", async () => {
    const p = await createPartner();
    const key = (await generate(p)).result.api_key;
    t.clock.advance(1);
    const r = await admin.rpc("partnerservice.deactivate_partner", { partner_id: p.partner_id });
    expect(r.result).toMatchObject({ is_active: false, active_key_count: 0 });
    expect((await withKey(key, "authservice.me")).error).toMatchObject({
      code: -32001,
      data: { variant: "KeyRevoked" },
    });
    const again = await generate(p);
    expect(again.error).toMatchObject({ code: -32002, data: { type: "ApiKeyError", variant: "Suspended" } });
    t.clock.advance(1);
    const repeat = await admin.rpc("partnerservice.deactivate_partner", { partner_id: p.partner_id });
    expect(repeat.result.is_active).toBe(false);
    const actions = await adminActions();
    expect(actions.map((a) => [a.action, JSON.parse(a.details)])).toEqual([
      ["create_partner", expect.any(Object)],
      ["deactivate_partner", { already_inactive: false, keys_revoked: 1 }],
      ["deactivate_partner", { already_inactive: true, keys_revoked: 0 }],
    ]);
  });

  test("a partner deactivated by a direct edit also stops its keys", async () => {
    const p = await createPartner();
    const key = (await generate(p)).result.api_key;
    await sql(t, `update "partner_configuration" set is_active = false`);
    expect((await withKey(key, "authservice.me")).error).toMatchObject({
      code: -32001,
      data: { variant: "KeyRevoked" },
    });
  });

  test("rotate_partner_credentials replaces secret and password; old ones stop, existing keys stay", async () => {
    const p = await createPartner();
    const key = (await generate(p)).result.api_key;
    const r = await admin.rpc("partnerservice.rotate_partner_credentials", { partner_id: p.partner_id });
    expect(r.result).toMatchObject({ client_id: p.client_id, credentials_rotated_at: t.clock.now().toISOString() });
    expect(r.result.client_secret).not.toBe(p.client_secret);
    expect((await generate(p)).error).toMatchObject({ data: { variant: "InvalidCredentials" } });
    expect((await generate(r.result)).result.prefix).toBe("fz_r_");
    expect((await withKey(key, "authservice.me")).result.user_id).toBe(p.wallet_user_id);
  });

  test("rotating the credentials of an inactive partner is InvalidState", async () => {
    const p = await createPartner();
    await admin.rpc("partnerservice.deactivate_partner", { partner_id: p.partner_id });
    const r = await admin.rpc("partnerservice.rotate_partner_credentials", { partner_id: p.partner_id });
    expect(r.error).toMatchObject({ code: -32005, data: { type: "PartnerError", variant: "InvalidState" } });
    expect(await count(t, "admin_action", "action = 'rotate_partner_credentials'")).toBe(0);
  });
});
