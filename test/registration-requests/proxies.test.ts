import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, generateKey, sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";
import { oldResidentId } from "./support.ts";

let t: TestApp;
let admin: Client;
let ada: Client;
let bob: Client;
let adaResident: string;
let company: string;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
  adaResident = oldResidentId();
  company = oldResidentId();
  const orm = t.app.runtime.orm;
  await insertRow(orm, "DigitalResident", residentValues(ada.userId, { resident_id: adaResident }));
  await insertRow(orm, "DigitalResident", residentValues(bob.userId, { resident_id: oldResidentId() }));
  // An external-company resident: no user, nobody owns it; someone acts for it through a proxy.
  await insertRow(
    orm,
    "DigitalResident",
    residentValues("", { resident_id: company, user_id: null, resident_type: "external_company" }),
  );
});

const create = (params: Record<string, unknown>, caller: Client = admin) =>
  caller.rpc("proxyservice.create_proxy", {
    principal_dr_id: adaResident,
    target_dr_id: company,
    role: "proxy",
    ...params,
  });
const adminActions = () => sql(t, `select action, target_type, target_id, details from "admin_action" order by sid`);

/** Whether the dispatcher lets ada name `residentId` as the acting resident (a resident-bound param). */
async function adaMayActFor(residentId: string): Promise<boolean> {
  const r = await ada.rpc("treasuryservice.list_resident_accounts", { resident_id: residentId });
  if (r.error?.code === -32001) throw new Error(`ada's session ended: ${JSON.stringify(r.error)}`);
  return r.error?.data?.variant !== "NotOwner";
}

describe("create_proxy and revoke_proxy", () => {
  test("an administrator creates an active proxy, open-ended from now by default, as an AdminAction", async () => {
    const r = await create({});
    expect(r.result).toEqual({
      sid: expect.any(String),
      principal_dr_id: adaResident,
      target_dr_id: company,
      role: "proxy",
      status: "active",
      valid_from: t.clock.now().toISOString(),
      valid_to: null,
      effective: true,
      created_by: admin.email,
      revoked_at: null,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    expect(await adminActions()).toEqual([
      expect.objectContaining({ action: "create_proxy", target_type: "proxy", target_id: r.result.sid }),
    ]);
    expect(await adaMayActFor(company)).toBe(true);
  });

  test("a valid_from in the past records an existing mandate, effective at once", async () => {
    const r = await create({ valid_from: "2026-01-01T00:00:00.000Z", valid_to: "2026-11-23T10:00:00.001Z" });
    expect(r.result).toMatchObject({ valid_from: "2026-01-01T00:00:00.000Z", effective: true });
    expect(await adaMayActFor(company)).toBe(true);
    t.clock.advance(0.001);
    expect(await adaMayActFor(company)).toBe(false);
  });

  test("a user, and an administrator's API key, are AdminOnly; nothing is written", async () => {
    const viaUser = await create({}, ada);
    expect(viaUser.error).toMatchObject({ code: -32002, data: { type: "ProxyError", variant: "AdminOnly" } });
    const key = await generateKey(admin, { mcp_scope: null });
    const viaKey = await t.rpc(
      "proxyservice.create_proxy",
      { principal_dr_id: adaResident, target_dr_id: company, role: "proxy" },
      { "x-api-key": key.key },
    );
    expect(viaKey.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect(await count(t, "proxy")).toBe(0);
    expect(await count(t, "admin_action")).toBe(0);
    expect(await adaMayActFor(company)).toBe(false);
  });

  test("unknown residents are NotFound; one resident twice or an empty window InvalidInput", async () => {
    const unknown = await create({ target_dr_id: "FZ-2026-RA999999" });
    expect(unknown.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    const self = await create({ target_dr_id: adaResident });
    expect(self.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const empty = await create({ valid_from: "2026-12-01T00:00:00.000Z", valid_to: "2026-12-01T00:00:00.000Z" });
    expect(empty.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const badDate = await create({ valid_from: "tomorrow" });
    expect(badDate.error?.code).toBe(-32602);
    expect(await count(t, "proxy")).toBe(0);
  });

  test("an overlapping active proxy with the same principal, target and role is AlreadyExists", async () => {
    await create({ valid_to: "2026-12-01T00:00:00.000Z" });
    const overlap = await create({ valid_from: "2026-11-30T23:59:59.999Z" });
    expect(overlap.error).toMatchObject({ code: -32005, data: { variant: "AlreadyExists" } });
    // Back to back (valid_to is exclusive), another role, or after a revocation: allowed.
    expect((await create({ valid_from: "2026-12-01T00:00:00.000Z" })).result).toBeDefined();
    expect((await create({ role: "signer" })).result).toBeDefined();
    expect(await count(t, "proxy")).toBe(3);
  });

  test("revoke ends the proxy at once and is idempotent; an unknown proxy is NotFound", async () => {
    const p = (await create({})).result;
    t.clock.advance(5);
    const r = await admin.callOk("proxyservice.revoke_proxy", { proxy_id: p.sid });
    expect(r).toMatchObject({ status: "revoked", revoked_at: t.clock.now().toISOString(), effective: false });
    expect(await adaMayActFor(company)).toBe(false);
    t.clock.advance(5);
    const again = await admin.callOk("proxyservice.revoke_proxy", { proxy_id: p.sid });
    expect(again.revoked_at).toBe(r.revoked_at);
    expect((await adminActions()).map((a) => [a.action, JSON.parse(a.details).already_revoked])).toEqual([
      ["create_proxy", undefined],
      ["revoke_proxy", false],
      ["revoke_proxy", true],
    ]);
    const missing = await admin.rpc("proxyservice.revoke_proxy", { proxy_id: "nope" });
    expect(missing.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    const byUser = await ada.rpc("proxyservice.revoke_proxy", { proxy_id: p.sid });
    expect(byUser.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    // A revoked proxy no longer blocks a new one.
    expect((await create({})).result).toBeDefined();
  });
});

describe("effectiveness at the window's edges, through the dispatcher's actor binding", () => {
  test("valid_from is inclusive and valid_to exclusive, to the millisecond, in the binding and in list_proxies", async () => {
    await create({ valid_from: "2026-11-23T10:20:00.000Z", valid_to: "2026-11-23T10:40:00.000Z" });
    const effectiveNow = async () =>
      (await ada.callOk("proxyservice.list_proxies", { resident_id: adaResident })).items[0]?.effective;
    const cases: [string, boolean][] = [
      ["2026-11-23T10:19:59.999Z", false],
      ["2026-11-23T10:20:00.000Z", true],
      ["2026-11-23T10:39:59.999Z", true],
      ["2026-11-23T10:40:00.000Z", false],
    ];
    for (const [now, expected] of cases) {
      t.clock.set(now);
      expect(await adaMayActFor(company), now).toBe(expected);
      expect(await effectiveNow(), now).toBe(expected);
    }
  });

  test("a proxy gives the principal nothing over other residents, and nobody else anything", async () => {
    await create({});
    const bobResident = (await sql(t, `select resident_id from "digital_resident" where user_id = ?`, [bob.userId]))[0]
      ?.resident_id;
    expect(await adaMayActFor(bobResident)).toBe(false);
    const bobActs = await bob.rpc("treasuryservice.list_resident_accounts", { resident_id: company });
    expect(bobActs.error).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
  });
});

describe("list_proxies", () => {
  test("the owner of a principal and administrators list its proxies newest first; others get NotFound", async () => {
    const first = (await create({ valid_to: "2026-12-01T00:00:00.000Z" })).result;
    t.clock.advance(1);
    const second = (await create({ role: "signer" })).result;
    const mine = await ada.callOk("proxyservice.list_proxies", { resident_id: adaResident });
    expect(mine.items.map((p) => p.sid)).toEqual([second.sid, first.sid]);
    const adminView = await admin.callOk("proxyservice.list_proxies", { resident_id: company });
    expect(adminView.items).toHaveLength(2);
    const stranger = await bob.rpc("proxyservice.list_proxies", { resident_id: adaResident });
    expect(stranger.error).toMatchObject({ code: -32003, data: { type: "ProxyError", variant: "NotFound" } });
    // The target has no owner: only administrators list it (the principal owns only its own resident).
    const principalOnTarget = await ada.rpc("proxyservice.list_proxies", { resident_id: company });
    expect(principalOnTarget.error).toMatchObject({ code: -32003 });
    const unknown = await admin.rpc("proxyservice.list_proxies", { resident_id: "FZ-2026-RA999999" });
    expect(unknown.error).toMatchObject({ code: -32003 });
  });
});
