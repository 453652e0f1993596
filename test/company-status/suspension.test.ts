import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, startFinanceApp } from "../support/entities.ts";
import { refusedNoWrite, sql } from "../support/helpers.ts";

// adminservice.suspend_company / unsuspend_company: an administrator suspends an active or inactive company (reason
// mandatory, AdminAction suspend_company) and lifts it (AdminAction unsuspend_company) to where its dates put it.
// The test clock starts 2026-11-23T10:00Z.

let t: TestApp;
let admin: Client;
let owner: Client;
beforeAll(async () => {
  t = await startFinanceApp();
  admin = await t.admin();
  owner = await t.register("suspend-owner@example.org");
});

const suspend = (id: string, reason: string, as = admin) =>
  as.call("adminservice.suspend_company", { company_id: id, reason });
const lift = (id: string, as = admin) => as.call("adminservice.unsuspend_company", { company_id: id });
const companyRow = async (id: string) =>
  (await sql(t, `select * from "zone_company" where company_id = ?`, [id]))[0] as Record<string, any>;
const actionsOf = (id: string) =>
  sql(t, `select action, admin_email, target_type, details from "admin_action" where target_id = ? order by sid`, [id]);
const writes = (id: string) => async () => ({ company: await companyRow(id), actions: await actionsOf(id) });
const invalidState = { type: "AdminError", variant: "InvalidState" };

describe("adminservice.suspend_company", () => {
  test.each(["active", "inactive"])("suspends a %s company with its reason in an AdminAction", async (status) => {
    const id = await insertCompany(t, owner.userId, { status });
    const result = await admin.callOk("adminservice.suspend_company", { company_id: id, reason: "  fraud probe " });
    expect(result).toEqual({
      company_id: id,
      name: expect.stringMatching(/^Test Company/),
      status: "suspended",
      previous_status: status,
      reason: "fraud probe",
      admin_action_id: expect.any(String),
    });
    expect((await companyRow(id))["status"]).toBe("suspended");
    const actions = await actionsOf(id);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      action: "suspend_company",
      admin_email: "admin@example.org",
      target_type: "company",
    });
    expect(JSON.parse(actions[0].details)).toEqual({ reason: "fraud probe", previous_status: status });
  });

  test("a suspended company is refused business operations (a company message) until lifted", async () => {
    const id = await insertCompany(t, owner.userId);
    await suspend(id, "probe");
    const post = () =>
      owner.call("messageservice.create_company_message", { company_id: id, title: "Hi", body: "There" });
    await refusedNoWrite(() => sql(t, `select * from company_message where company_id = ?`, [id]), post, -32005, {
      type: "MessageError",
      variant: "InvalidState",
    });
    await lift(id);
    expect("result" in (await post())).toBe(true);
  });

  test("of two concurrent suspensions one wins, the other is InvalidState; one AdminAction", async () => {
    const id = await insertCompany(t, owner.userId);
    const replies = await Promise.all([suspend(id, "one"), suspend(id, "two")]);
    expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    expect(replies.filter((r) => "error" in r).map((r) => ("error" in r ? r.error.data?.variant : null))).toEqual([
      "InvalidState",
    ]);
    expect(await actionsOf(id)).toHaveLength(1);
  });

  test.each([
    ["suspended", {}],
    ["voided", { void_reason: "dup" }],
    ["draft", {}],
    ["pending_signatures", {}],
  ] as const)("a %s company is InvalidState, nothing written", async (status, extra) => {
    const id = await insertCompany(t, owner.userId, { status, ...extra });
    await refusedNoWrite(writes(id), () => suspend(id, "again"), -32005, invalidState);
  });

  test("a blank reason is InvalidInput and a missing one is refused by the schema; nothing is written", async () => {
    const id = await insertCompany(t, owner.userId);
    await refusedNoWrite(writes(id), () => suspend(id, "   "), -32006, { type: "AdminError", variant: "InvalidInput" });
    await refusedNoWrite(writes(id), () => admin.rpc("adminservice.suspend_company", { company_id: id }), -32602, null);
  });

  test("an unknown company is NotFound; a plain user (even the owner) is AdminOnly; nothing is written", async () => {
    const unknown = await suspend("FZ-2026-Y999999", "x");
    expect(unknown).toMatchObject({ error: { code: -32003, data: { variant: "NotFound" } } });
    const id = await insertCompany(t, owner.userId);
    await refusedNoWrite(writes(id), () => suspend(id, "mine", owner), -32002, {
      type: "AdminError",
      variant: "AdminOnly",
    });
  });
});

describe("adminservice.unsuspend_company", () => {
  test("lifts to active while the subscription runs, with an AdminAction", async () => {
    const id = await insertCompany(t, owner.userId, { subscription_end_date: new Date("2026-12-31T00:00:00.000Z") });
    await suspend(id, "probe");
    const result = await admin.callOk("adminservice.unsuspend_company", { company_id: id });
    expect(result).toMatchObject({ status: "active", previous_status: "suspended", reason: null });
    expect((await companyRow(id))["status"]).toBe("active");
    const actions = await actionsOf(id);
    expect(actions.map((a) => a.action)).toEqual(["suspend_company", "unsuspend_company"]);
    expect(JSON.parse(actions[1].details)).toEqual({ status: "active" });
  });

  test("lifts to inactive when the subscription ended meanwhile (even if it was active when suspended)", async () => {
    const id = await insertCompany(t, owner.userId, {
      subscription_end_date: new Date(t.clock.now().getTime() + 30_000),
    });
    await suspend(id, "probe");
    t.clock.advance(60);
    const result = await admin.callOk("adminservice.unsuspend_company", { company_id: id });
    expect(result).toMatchObject({ status: "inactive", previous_status: "suspended" });
    expect((await companyRow(id))["status"]).toBe("inactive");
  });

  test.each([
    ["active", {}],
    ["inactive", {}],
    ["voided", { void_reason: "dup" }],
  ] as const)("a %s company (not suspended) is InvalidState, nothing written", async (status, extra) => {
    const id = await insertCompany(t, owner.userId, { status, ...extra });
    await refusedNoWrite(writes(id), () => lift(id), -32005, invalidState);
  });

  test("an unknown company is NotFound; a plain user is AdminOnly; nothing is written", async () => {
    expect(await lift("FZ-2026-Y999999")).toMatchObject({ error: { code: -32003 } });
    const id = await insertCompany(t, owner.userId, { status: "suspended" });
    await refusedNoWrite(writes(id), () => lift(id, owner), -32002, { type: "AdminError", variant: "AdminOnly" });
  });
});
