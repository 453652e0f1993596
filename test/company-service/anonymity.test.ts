import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertRole, member, person, startFinanceApp } from "../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../support/helpers.ts";
import { insertFullCompany } from "./support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const companyError = (variant: string) => ({ type: "CompanyError", variant });

async function owned(extra: Record<string, unknown> = {}): Promise<{ o: Client; company: string }> {
  const o = await t.register(`anon-owner-${Math.random()}@example.org`);
  return { o, company: await insertFullCompany(t, o.userId, extra) };
}

const flags = async (company: string) =>
  (await sql(t, `select anonymity_enabled, anonymity_changed_at from zone_company where company_id = ?`, [company]))[0];

describe("companyservice.set_anonymity", () => {
  test("the owner flips the flag; anonymity_changed_at moves only on a flip", async () => {
    const { o, company } = await owned();
    const on = await o.callOk("companyservice.set_anonymity", { company_id: company, enabled: true });
    const at = t.clock.now().toISOString();
    expect(on).toMatchObject({ anonymity_enabled: true, anonymity_changed_at: at });
    t.clock.advance(60);
    const again = await o.callOk("companyservice.set_anonymity", { company_id: company, enabled: true });
    expect(again.anonymity_changed_at).toBe(at);
    const off = await o.callOk("companyservice.set_anonymity", { company_id: company, enabled: false });
    expect(off).toMatchObject({ anonymity_enabled: false, anonymity_changed_at: t.clock.now().toISOString() });
  });

  test("allowed in every status, voided included", async () => {
    const { o, company } = await owned({ status: "voided" });
    expect(
      (await o.callOk("companyservice.set_anonymity", { company_id: company, enabled: true })).anonymity_enabled,
    ).toBe(true);
  });

  test("a founder resident that is not the owner, and an administrator, are refused; nothing written", async () => {
    const { company } = await owned();
    const founder = await person(t, company, "founder");
    await refusedNoWrite(
      () => flags(company),
      () => founder.client.call("companyservice.set_anonymity", { company_id: company, enabled: true }),
      -32002,
      companyError("Forbidden"),
    );
    const admin = await t.admin();
    await refusedNoWrite(
      () => flags(company),
      () => admin.call("companyservice.set_anonymity", { company_id: company, enabled: true }),
      -32002,
      companyError("Forbidden"),
    );
  });

  test("a caller without a role gets NotFound", async () => {
    const { company } = await owned();
    const stranger = await member(t);
    const err = errorOf(
      await stranger.client.call("companyservice.set_anonymity", { company_id: company, enabled: true }),
    );
    expect(err).toMatchObject({ code: -32003, data: companyError("NotFound") });
  });

  test("once on, outsiders' cards are masked and role lists show no holder name for the company", async () => {
    const { o, company } = await owned();
    const subsidiary = await owned();
    await insertRole(t, subsidiary.company, company, "shareholder");
    const stranger = await member(t);
    const before = await stranger.client.callOk("companyservice.get_card", { company_id: company });
    expect(before).toMatchObject({ masked: false, name: expect.stringMatching(/^Test Company/) });
    const roles = () =>
      subsidiary.o.callOk("companyroleservice.list_by_company", { company_id: subsidiary.company, as_of_epoch: 0 });
    expect((await roles()).items[0]?.holder_name).toMatch(/^Test Company/);

    await o.callOk("companyservice.set_anonymity", { company_id: company, enabled: true });
    expect(await stranger.client.callOk("companyservice.get_card", { company_id: company })).toMatchObject({
      masked: true,
      name: null,
    });
    expect((await o.callOk("companyservice.get_card", { company_id: company })).masked).toBe(false);
    expect((await roles()).items[0]).toMatchObject({ holder_name: null, subject_id: null });
  });
});
