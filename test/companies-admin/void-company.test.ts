import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, startFinanceApp } from "../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../support/helpers.ts";

let t: TestApp;
let admin: Client;
let owner: Client;
beforeAll(async () => {
  t = await startFinanceApp();
  admin = await t.admin();
  owner = await t.register("void-owner@example.org");
});

const voidIt = (companyId: string, reason: string, as = admin) =>
  as.rpc("adminservice.void_company", { company_id: companyId, reason });
const companyRow = async (id: string) =>
  (await sql(t, `select * from "zone_company" where company_id = ?`, [id]))[0] as Record<string, any>;
/** The business writes of a void: the company row and admin actions about it (audit rows are checked apart). */
const writes = (id: string) => async () => ({
  company: await companyRow(id),
  actions: await sql(t, `select * from "admin_action" where target_id = ?`, [id]),
});
const audits = (id: string) =>
  sql(t, `select allowed from "user_audit_log" where target_ref = ? and action = 'void_registration' order by sid`, [
    id,
  ]);

describe("adminservice.void_company", () => {
  test.each(["active", "inactive", "suspended", "draft", "pending_signatures"])(
    "voids a %s company in one step, keeps the record, writes an AdminAction and audits void_registration",
    async (status) => {
      const id = await insertCompany(t, owner.userId, { status });
      const r = await voidIt(id, "  duplicate registration  ");
      expect(r.result).toEqual({
        company_id: id,
        name: expect.stringMatching(/^Test Company/),
        status: "voided",
        previous_status: status,
        void_reason: "duplicate registration",
        voided_at: t.clock.now().toISOString(),
        voided_by: "admin@example.org",
      });
      const row = await companyRow(id);
      expect(row).toMatchObject({
        status: "voided",
        void_reason: "duplicate registration",
        voided_by: "admin@example.org",
      });
      expect(new Date(row["voided_at"]).toISOString()).toBe(t.clock.now().toISOString());
      const actions = await sql(t, `select * from "admin_action" where target_id = ?`, [id]);
      expect(actions).toHaveLength(1);
      expect(actions[0]).toMatchObject({
        action: "void_company",
        target_type: "company",
        admin_email: "admin@example.org",
      });
      expect(JSON.parse(actions[0].details)).toEqual({ reason: "duplicate registration", previous_status: status });
      const audit = await sql(
        t,
        `select * from "user_audit_log" where target_ref = ? and action = 'void_registration'`,
        [id],
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ target_type: "company", allowed: true });
    },
  );

  test("a blank reason is InvalidInput and an empty one is refused by the schema; nothing is written", async () => {
    const id = await insertCompany(t, owner.userId);
    const err = { type: "AdminError", variant: "InvalidInput" };
    await refusedNoWrite(writes(id), () => voidIt(id, "   "), -32006, err);
    expect(await audits(id)).toEqual([{ allowed: false }]);
    const before = await companyRow(id);
    const empty = await voidIt(id, "");
    expect(empty.error).toBeDefined();
    expect(await companyRow(id)).toEqual(before);
    expect(before["status"]).toBe("active");
  });

  test("voiding twice is InvalidState and changes nothing (the first void's fields stay)", async () => {
    const id = await insertCompany(t, owner.userId);
    await voidIt(id, "first");
    t.clock.advance(60);
    const before = await writes(id)();
    const err = errorOf(await voidIt(id, "second"));
    expect(err).toMatchObject({ code: -32005, data: { type: "AdminError", variant: "InvalidState" } });
    const after = await writes(id)();
    expect(after.company).toEqual(before.company);
    expect(after.actions).toEqual(before.actions);
    expect(after.company["void_reason"]).toBe("first");
    expect(await audits(id)).toEqual([{ allowed: true }, { allowed: false }]);
  });

  test("an unknown company is NotFound; a plain user is AdminOnly; nothing is written", async () => {
    const unknown = await voidIt("FZ-2026-Y999999", "x");
    expect(unknown.error).toMatchObject({ code: -32003, data: { type: "AdminError", variant: "NotFound" } });
    const id = await insertCompany(t, owner.userId);
    const byOwner = await voidIt(id, "mine", owner);
    expect(byOwner.error?.data).toMatchObject({ variant: "AdminOnly" });
    expect((await companyRow(id))["status"]).toBe("active");
    expect(await sql(t, `select * from "admin_action" where target_id = ?`, [id])).toEqual([]);
  });
});
