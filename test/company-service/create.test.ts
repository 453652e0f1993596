import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, insertProxy, member, startFinanceApp } from "../support/entities.ts";
import { count, errorOf, refusedNoWrite, sql } from "../support/helpers.ts";
import { balanceOf, companyData, founder, holder, registrationWrites } from "./support.ts";

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await startFinanceApp();
  admin = await t.admin();
});
afterAll(() => t.close());

const companyError = (variant: string) => ({ type: "CompanyError", variant });

describe("companyservice.create", () => {
  test("registers an active company: priced, wallet debited, snapshot stamped, founder and shareholder roles", async () => {
    const { client, resident } = await founder(t, admin, 1000);
    const company = await client.callOk("companyservice.create", {
      data: companyData(resident, { name: "  Babbage & Lovelace FZC ", subscription_plan: "one_year" }),
    });
    // single_fzc: setup 500 less the 25% early bird = 375; 50 a month for 12 months less 20% = 480.
    expect(company).toMatchObject({
      company_id: expect.stringMatching(/^FZ-2026-Y\d{6}$/),
      external_id: expect.stringMatching(/^FZX-/),
      name: "Babbage & Lovelace FZC",
      status: "active",
      voting_model: "standard",
      owner_resident_id: null,
      subscription_plan: "one_year",
      subscription_start_date: "2026-11-23T10:00:00.000Z",
      subscription_end_date: "2027-11-23T10:00:00.000Z",
      subscription_status: "active",
      setup_fee_paid: 375,
      monthly_fee_rate: 50,
      shareholder_fee_rate: 0,
      prepaid_discount_applied: 0.2,
      early_bird_applied: true,
      draft_id: null,
      shareholders: [{ resident_id: resident, role: "shareholder", units: 100 }],
    });
    expect(company.registration_number).toBe(company.company_id);
    expect(await balanceOf(t, client.userId)).toBe(1000 - 375 - 480);
    const ledger = await sql(t, `select * from credit_transaction where tx_type = 'deduction' and user_id = ?`, [
      client.userId,
    ]);
    expect(ledger).toMatchObject([{ amount: "855.00", reference_type: "company", reference_id: company.sid }]);
    const roles = await sql(
      t,
      `select subject_id, role, valid_to from company_role where company_id = ? order by role`,
      [company.company_id],
    );
    expect(roles).toEqual([
      { subject_id: resident, role: "founder", valid_to: null },
      { subject_id: resident, role: "shareholder", valid_to: null },
    ]);
    const owner = await sql(t, `select user_id, partner_id from zone_company where company_id = ?`, [
      company.company_id,
    ]);
    expect(owner).toEqual([{ user_id: client.userId, partner_id: null }]);
  });

  test("a cooperative gets a P id, cooperative voting and founding_member roles with 0 units", async () => {
    const { client, resident } = await founder(t, admin);
    const company = await client.callOk("companyservice.create", {
      data: companyData(resident, { company_type: "coop_standard_fzc", voting_model: "standard" }),
    });
    expect(company).toMatchObject({
      company_id: expect.stringMatching(/^FZ-2026-P\d{6}$/),
      voting_model: "cooperative",
      shareholders: [{ role: "founding_member", units: 0 }],
    });
    const roles = await sql(t, `select role from company_role where company_id = ? order by role`, [
      company.company_id,
    ]);
    expect(roles.map((r) => r.role)).toEqual(["founder", "founding_member"]);
  });

  test("the success is audited (other, target company)", async () => {
    const { client, resident } = await founder(t, admin);
    const company = await client.callOk("companyservice.create", { data: companyData(resident) });
    const rows = await sql(
      t,
      `select action, target_type, target_ref, allowed from user_audit_log where target_ref = ?`,
      [company.sid],
    );
    expect(rows).toEqual([{ action: "other", target_type: "company", target_ref: company.sid, allowed: true }]);
  });

  test("a refusal is audited too (allowed false, with the variant)", async () => {
    const { client, resident } = await founder(t, admin, 0);
    await client.call("companyservice.create", { data: companyData(resident) });
    const rows = await sql(t, `select action, target_type, allowed, context from user_audit_log where subject_id = ?`, [
      client.userId,
    ]);
    expect(rows).toMatchObject([{ action: "other", target_type: "company", allowed: false }]);
    const context = rows[0].context;
    expect(typeof context === "string" ? JSON.parse(context) : context).toMatchObject({ error: "InsufficientFunds" });
  });

  test("a short wallet is InsufficientFunds and writes nothing", async () => {
    const { client, resident } = await founder(t, admin, 100);
    await refusedNoWrite(
      () => registrationWrites(t),
      () => client.call("companyservice.create", { data: companyData(resident) }),
      -32006,
      companyError("InsufficientFunds"),
    );
  });

  test("a name a registered company bears (any case) is AlreadyExists and writes nothing", async () => {
    const { client, resident } = await founder(t, admin);
    await insertCompany(t, client.userId, { name: "Taken Name FZC" });
    await refusedNoWrite(
      () => registrationWrites(t),
      () => client.call("companyservice.create", { data: companyData(resident, { name: "taken NAME fzc" }) }),
      -32005,
      companyError("AlreadyExists"),
    );
  });

  // Issue 29 item 6: names compare by their key (src/domain/name-key.ts), the display form is stored as given.
  test("a look-alike of a registered name (zero-width or no-break space, fullwidth) is AlreadyExists", async () => {
    const live = await founder(t, admin);
    await live.client.callOk("companyservice.create", {
      data: companyData(live.resident, { name: "Harbour Software FZC" }),
    });
    const { client, resident } = await founder(t, admin);
    for (const name of ["Harbour Software FZC\u200b", "Harbour\u00a0Software FZC", "Ｈａｒｂｏｕｒ Software  FZC"]) {
      await refusedNoWrite(
        () => registrationWrites(t),
        () => client.call("companyservice.create", { data: companyData(resident, { name }) }),
        -32005,
        companyError("AlreadyExists"),
      );
    }
    const distinct = await client.callOk("companyservice.create", {
      data: companyData(resident, { name: "Ｈａｒｂｏｕｒ\u00a0Softwares FZC" }),
    });
    expect(distinct.name).toBe("Ｈａｒｂｏｕｒ\u00a0Softwares FZC");
    const stored = await sql(t, `select name, name_key from zone_company where company_id = ?`, [distinct.company_id]);
    expect(stored).toEqual([{ name: "Ｈａｒｂｏｕｒ\u00a0Softwares FZC", name_key: "harbour softwares fzc" }]);
  });

  test("a name of invisible characters only is InvalidInput and writes nothing", async () => {
    const { client, resident } = await founder(t, admin);
    await refusedNoWrite(
      () => registrationWrites(t),
      () => client.call("companyservice.create", { data: companyData(resident, { name: "\u200b\u2060" }) }),
      -32006,
      companyError("InvalidInput"),
    );
  });

  test("of two concurrent registrations of one name, one wins and the other is AlreadyExists", async () => {
    const a = await founder(t, admin);
    const b = await founder(t, admin);
    const replies = await Promise.all([
      a.client.call("companyservice.create", { data: companyData(a.resident, { name: "Race FZC" }) }),
      b.client.call("companyservice.create", { data: companyData(b.resident, { name: "race fzc" }) }),
    ]);
    const failed = replies.filter((r) => "error" in r);
    expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    expect(failed.map((r) => errorOf(r).data)).toMatchObject([companyError("AlreadyExists")]);
    expect(await count(t, "zone_company", "lower(name) = 'race fzc'")).toBe(1);
    const spent = [await balanceOf(t, a.client.userId), await balanceOf(t, b.client.userId)].sort((x, y) => x - y);
    expect(spent).toEqual([10_000 - 425, 10_000].sort((x, y) => x - y));
  });

  test("the name of a voided company is free again", async () => {
    const { client, resident } = await founder(t, admin);
    await insertCompany(t, client.userId, { name: "Phoenix FZC", status: "voided" });
    const company = await client.callOk("companyservice.create", {
      data: companyData(resident, { name: "Phoenix FZC" }),
    });
    expect(company.status).toBe("active");
  });

  test("the unique index refuses a second registered company with the same name", async () => {
    const { client } = await founder(t, admin, 0);
    await insertCompany(t, client.userId, { name: "Twin FZC" });
    await expect(insertCompany(t, client.userId, { name: "TWIN fzc" })).rejects.toThrow();
    // The index is on the key: a look-alike is refused too (a lost race of look-alikes answers AlreadyExists).
    await expect(insertCompany(t, client.userId, { name: "Twin\u00a0FZC\u200b" })).rejects.toThrow();
  });

  test("a holder the caller neither owns nor acts for is Forbidden and writes nothing", async () => {
    const { client, resident } = await founder(t, admin);
    const stranger = await member(t);
    const data = companyData(resident, {
      company_type: "startup_fzc",
      shareholders: [holder(resident), holder(stranger.resident)],
    });
    await refusedNoWrite(
      () => registrationWrites(t),
      () => client.call("companyservice.create", { data }),
      -32002,
      companyError("Forbidden"),
    );
  });

  test("a holder the caller acts for through an effective Proxy is accepted", async () => {
    const { client, resident } = await founder(t, admin);
    const principal = await member(t);
    await insertProxy(t, resident, principal.resident);
    const company = await client.callOk("companyservice.create", {
      data: companyData(resident, {
        company_type: "startup_fzc",
        shareholders: [holder(resident), holder(principal.resident, { units: 50 })],
      }),
    });
    const roles = await sql(
      t,
      `select subject_id, role from company_role where company_id = ? and role = 'shareholder'`,
      [company.company_id],
    );
    expect(roles.map((r) => r.subject_id).sort()).toEqual([resident, principal.resident].sort());
  });

  test("a holder behind an expired Proxy is Forbidden", async () => {
    const { client, resident } = await founder(t, admin);
    const principal = await member(t);
    await insertProxy(t, resident, principal.resident, { valid_to: new Date("2026-02-01T00:00:00.000Z") });
    const data = companyData(resident, {
      company_type: "startup_fzc",
      shareholders: [holder(resident), holder(principal.resident)],
    });
    expect(errorOf(await client.call("companyservice.create", { data })).data).toMatchObject(companyError("Forbidden"));
  });

  test("owner_resident_id naming someone else's resident is Forbidden", async () => {
    const { client, resident } = await founder(t, admin);
    const stranger = await member(t);
    const data = companyData(resident, { owner_resident_id: stranger.resident });
    await refusedNoWrite(
      () => registrationWrites(t),
      () => client.call("companyservice.create", { data }),
      -32002,
      companyError("Forbidden"),
    );
  });

  test("a caller without a resident is NotFound", async () => {
    const client = await t.register("no-resident@example.org");
    const data = companyData("FZ-2026-RA999999");
    expect(errorOf(await client.call("companyservice.create", { data })).data).toMatchObject(companyError("NotFound"));
  });

  test("more holders than the type allows is InvalidInput", async () => {
    const { client, resident } = await founder(t, admin);
    const principal = await member(t);
    await insertProxy(t, resident, principal.resident);
    const data = companyData(resident, { shareholders: [holder(resident), holder(principal.resident)] });
    expect(errorOf(await client.call("companyservice.create", { data })).data).toMatchObject(
      companyError("InvalidInput"),
    );
  });

  test("due_process_executors on a company that is not a cooperative is InvalidInput", async () => {
    const { client, resident } = await founder(t, admin);
    const executors = {
      notice: null,
      response: null,
      review: "review_panel",
      decision: null,
      appeal: null,
      appeal_decision: null,
    } as const;
    const data = companyData(resident, { due_process_executors: executors });
    expect(errorOf(await client.call("companyservice.create", { data })).data).toMatchObject(
      companyError("InvalidInput"),
    );
  });

  test("a user_id naming another user is refused by the caller binding", async () => {
    const { client, resident } = await founder(t, admin);
    const other = await t.register("other-user@example.org");
    const err = errorOf(
      await client.call("companyservice.create", { user_id: other.userId, data: companyData(resident) }),
    );
    expect(err.code).toBe(-32002);
  });
});
