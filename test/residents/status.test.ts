import { beforeEach, describe, expect, test } from "vitest";
import { sweepExpiredResidents } from "../../src/services/resident-service/expiry-sweep.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { createResident, insertResident, residentRow } from "./support.ts";

/** ResidentStatus moves (docs/decisions.md "Resident status") and SubscriptionStatus read from the dates. */

let t: TestApp;
let ada: Client;
let admin: Client;

const DAY_S = 86_400;

beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
  admin = await t.admin();
});

const at = (offsetS: number) => new Date(t.clock.now().getTime() + offsetS * 1000);

/** An activated resident of Ada whose paid period ends `endInS` seconds from now. */
function activeResident(endInS: number, extra: Record<string, unknown> = {}) {
  return insertResident(t, {
    user_id: ada.userId,
    status: "active",
    subscription_plan: "1_year",
    subscription_start_date: at(endInS - 365 * DAY_S),
    subscription_end_date: at(endInS),
    ...extra,
  });
}

const get = async (id: string) => ada.callOk("residentservice.get", { resident_id: id });

describe("subscription status, computed at read time", () => {
  test("none without dates; active beyond 30 days; expiring from exactly 30 days before the end", async () => {
    const id = await activeResident(30 * DAY_S + 1);
    expect(await get(id)).toMatchObject({ status: "active", subscription_status: "active" });
    t.clock.advance(1);
    expect(await get(id)).toMatchObject({ status: "active", subscription_status: "expiring" });
  });

  test("at the end instant the subscription is suspended and the resident reads expired", async () => {
    const id = await activeResident(10);
    t.clock.advance(9.999);
    expect(await get(id)).toMatchObject({ status: "active", subscription_status: "expiring" });
    t.clock.advance(0.001);
    expect(await get(id)).toMatchObject({ status: "expired", subscription_status: "suspended" });
    // Read-only: the stored status waits for the sweep.
    expect((await residentRow(t, id))?.status).toBe("active");
    const card = await ada.callOk("residentservice.get_card", {});
    expect(card).toMatchObject({ status: "expired", subscription_status: "suspended" });
  });

  test("a fresh resident has none", async () => {
    const r = await createResident(ada);
    expect(r.subscription_status).toBe("none");
  });
});

describe("expiry sweep", () => {
  test("moves active residents past their end to expired, once; others stay", async () => {
    const lapsing = await activeResident(DAY_S);
    const later = await activeResident(3 * DAY_S, { user_id: (await t.register("bob@example.org")).userId });
    const pending = (await createResident(await t.register("carol@example.org"), { email: "c@example.org" }))
      .resident_id;
    expect(await sweepExpiredResidents(t.app.runtime, t.clock.now())).toEqual([]);
    t.clock.advance(DAY_S);
    const moved = await sweepExpiredResidents(t.app.runtime, t.clock.now());
    expect(moved.filter((id) => id !== lapsing)).toEqual([]);
    expect((await residentRow(t, lapsing))?.status).toBe("expired");
    expect((await residentRow(t, later))?.status).toBe("active");
    expect((await residentRow(t, pending))?.status).toBe("pending");
    expect(await sweepExpiredResidents(t.app.runtime, t.clock.now())).toEqual([]);
  });

  test("an expired resident may still change its profile and plan but not be deleted", async () => {
    const id = await activeResident(-1, { status: "expired" });
    const u = await ada.callOk("residentservice.update", { resident_id: id, data: { phone: "+255722222222" } });
    expect(u.status).toBe("expired");
    const plan = { resident_id: id, plan: "2_years", auto_renewal: true };
    expect((await ada.callOk("residentservice.update_subscription", plan)).subscription_plan).toBe("2_years");
    expect(errorOf(await ada.call("residentservice.delete", { resident_id: id }))).toMatchObject({
      code: -32005,
      data: { variant: "InvalidState", status: "expired" },
    });
  });
});

describe("suspension by an administrator", () => {
  test("suspend records an AdminAction; a suspended resident is frozen for its owner", async () => {
    const id = await activeResident(100 * DAY_S);
    const s = await admin.callOk("residentservice.suspend", { resident_id: id, reason: "  fraud review  " });
    expect(s.status).toBe("suspended");
    const actions = await sql(t, `select admin_email, action, target_type, target_id, details from "admin_action"`);
    expect(actions).toEqual([
      {
        admin_email: "admin@example.org",
        action: "suspend_resident",
        target_type: "resident",
        target_id: id,
        details: JSON.stringify({ reason: "fraud review", previous_status: "active" }),
      },
    ]);
    expect((await get(id)).status).toBe("suspended");
    const frozen = [
      await ada.call("residentservice.update", { resident_id: id, data: { phone: "+255733333333" } }),
      await ada.call("residentservice.update_subscription", { resident_id: id, plan: "3_years", auto_renewal: true }),
      await ada.call("residentservice.delete", { resident_id: id }),
    ];
    for (const reply of frozen) {
      expect(errorOf(reply)).toMatchObject({ code: -32005, data: { variant: "InvalidState", status: "suspended" } });
    }
    // Privacy is never withheld: the anonymity flag still moves.
    expect(
      (await ada.callOk("residentservice.set_anonymity", { resident_id: id, enabled: true })).anonymity_enabled,
    ).toBe(true);
    // An administrator may still correct the profile.
    expect(
      (await admin.callOk("residentservice.update", { resident_id: id, data: { phone: "+255744444444" } })).phone,
    ).toBe("+255744444444");
    expect((await residentRow(t, id))?.subscription_plan).toBe("1_year");
  });

  test("a non-administrator or an administrator's key is refused and nothing changes", async () => {
    const id = await activeResident(100 * DAY_S);
    const own = await ada.call("residentservice.suspend", { resident_id: id, reason: "x" });
    expect(errorOf(own)).toMatchObject({ code: -32002, data: { type: "ResidentError", variant: "AdminOnly" } });
    const key = (
      await admin.rpc("apikeyservice.generate_personal", { name: "k", password: "correct horse battery staple 42" })
    ).result.api_key;
    const viaKey = await t.rpc("residentservice.suspend", { resident_id: id, reason: "x" }, { "x-api-key": key });
    expect(viaKey.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect((await residentRow(t, id))?.status).toBe("active");
    expect(await count(t, "admin_action")).toBe(0);
  });

  test("unknown resident NotFound; twice InvalidState; blank reason InvalidInput", async () => {
    const id = await activeResident(100 * DAY_S);
    expect(
      errorOf(await admin.call("residentservice.suspend", { resident_id: "FZ-2026-RA999999", reason: "x" })),
    ).toMatchObject({
      code: -32003,
    });
    expect(errorOf(await admin.call("residentservice.suspend", { resident_id: id, reason: "   " }))).toMatchObject({
      code: -32006,
      data: { variant: "InvalidInput" },
    });
    await admin.callOk("residentservice.suspend", { resident_id: id, reason: "x" });
    expect(errorOf(await admin.call("residentservice.suspend", { resident_id: id, reason: "x" }))).toMatchObject({
      code: -32005,
      data: { variant: "InvalidState" },
    });
    expect(await count(t, "admin_action")).toBe(1);
  });

  test("reinstate returns the resident to where its dates put it", async () => {
    const bob = await t.register("bob@example.org");
    const running = await activeResident(100 * DAY_S);
    const lapsed = await activeResident(-DAY_S, { user_id: bob.userId });
    const never = (await createResident(await t.register("carol@example.org"), { email: "c@example.org" })).resident_id;
    for (const id of [running, lapsed, never])
      await admin.callOk("residentservice.suspend", { resident_id: id, reason: "check" });
    const back = async (id: string) =>
      (await admin.callOk("residentservice.reinstate", { resident_id: id, reason: "cleared" })).status;
    expect(await back(running)).toBe("active");
    expect(await back(lapsed)).toBe("expired");
    expect(await back(never)).toBe("pending");
    expect((await residentRow(t, lapsed))?.status).toBe("expired");
    const last = await sql(
      t,
      `select details from "admin_action" where action = 'reinstate_resident' order by sid desc limit 1`,
    );
    expect(JSON.parse(last[0].details)).toEqual({ reason: "cleared", status: "pending" });
    expect(errorOf(await admin.call("residentservice.reinstate", { resident_id: running, reason: "x" }))).toMatchObject(
      {
        code: -32005,
        data: { variant: "InvalidState" },
      },
    );
  });

  test("suspension and reinstatement through the alias prefix", async () => {
    const id = await activeResident(100 * DAY_S);
    expect((await admin.rpc("digitalresidentservice.suspend", { resident_id: id, reason: "x" })).result.status).toBe(
      "suspended",
    );
  });
});
