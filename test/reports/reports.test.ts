import { beforeAll, describe, expect, test } from "vitest";
import type { CallReply, Client, TestApp } from "../support/app.ts";
import {
  insertProxy,
  insertRole,
  person,
  type Staffed,
  staffedCompanies,
  startFinanceApp,
} from "../support/entities.ts";
import { COMPANY_MEMBERS, errorOf, oneAudience, refusedNoWrite as refused, sql } from "../support/helpers.ts";
import { AS_OF, BALANCE_SHEET_AS_OF_USD, OCT_END, OCT_START, TRIAL_AS_OF } from "./books.ts";
import { reportWrites, seedBooks, seedOtherBooks } from "./support.ts";

let t: TestApp;
let company: string;
let other: string;
let director: Staffed["director"];
let shareholder: Staffed["shareholder"];
let outsider: Staffed["outsider"];

beforeAll(async () => {
  t = await startFinanceApp();
  ({ company, other, director, shareholder, outsider } = await staffedCompanies(t, "rep-owner@example.org"));
  await seedBooks(t, company);
  await seedOtherBooks(t, other);
});

const refusedNoWrite = (call: () => Promise<CallReply<unknown>>, code: number, variant: string) =>
  refused(() => reportWrites(t), call, code, { type: "ReportError", variant });

const trial = (c: Client, params: Record<string, string> = {}) =>
  c.call("reportservice.generate_trial_balance", {
    company_id: company,
    as_of_date: AS_OF,
    generated_by: director.resident,
    ...params,
  });

describe("reportservice.generate_trial_balance", () => {
  test("the seeded company's trial balance balances with the known figures, stored with its audience", async () => {
    const r = await director.client.callOk("reportservice.generate_trial_balance", {
      company_id: company,
      as_of_date: AS_OF,
      generated_by: director.resident,
    });
    expect(r).toMatchObject({
      company_id: company,
      report_type: "trial_balance",
      title: `Trial balance as of ${AS_OF}`,
      as_of_date: AS_OF,
      period_start: null,
      period_end: null,
      generated_by: director.resident,
      content_format: "json",
      created_at: t.clock.now().toISOString(),
    });
    const body = JSON.parse(r.content);
    expect(body.sections.map((s: { currency: string }) => s.currency)).toEqual(["EUR", "USD"]);
    const usd = body.sections[1];
    const byCode = Object.fromEntries(
      usd.accounts.map((a: { code: string; debit: number; credit: number }) => [a.code, [a.debit, a.credit]]),
    );
    expect(byCode).toEqual(TRIAL_AS_OF.usdLines);
    expect(usd).toMatchObject(TRIAL_AS_OF.usdTotals);
    expect(body.sections[0]).toMatchObject(TRIAL_AS_OF.eurTotals);

    const [stored] = await sql(t, `select * from "financial_report" where sid = ?`, [r.sid]);
    expect(stored).toMatchObject({ company_id: company, report_type: "trial_balance", content: r.content });
    const aud = await oneAudience(t, r.sid);
    expect(aud).toMatchObject({
      document_type: "financial_report",
      company_id: company,
      audience_computation: "financial_report_company_members",
      created_by: director.client.userId,
    });
    expect([...aud.classification].sort()).toEqual(COMPANY_MEMBERS);
  });

  test("a company without books gets an empty, balanced report", async () => {
    const lonely = await person(t, other, "director");
    const r = await lonely.client.callOk("reportservice.generate_trial_balance", {
      company_id: other,
      as_of_date: "2026-09-01T00:00:00.000Z",
      generated_by: lonely.resident,
    });
    expect(JSON.parse(r.content).sections).toEqual([]);
  });

  test("as_of_date in the future is InvalidInput; now is accepted", async () => {
    await refusedNoWrite(
      () => trial(director.client, { as_of_date: "2026-11-23T10:00:00.001Z" }),
      -32006,
      "InvalidInput",
    );
    expect("result" in (await trial(director.client, { as_of_date: t.clock.now().toISOString() }))).toBe(true);
  });

  test("a shareholder is Forbidden, another company's director NotFound, an unknown company NotFound", async () => {
    await refusedNoWrite(() => trial(shareholder.client, { generated_by: shareholder.resident }), -32002, "Forbidden");
    await refusedNoWrite(() => trial(outsider.client, { generated_by: outsider.resident }), -32003, "NotFound");
    await refusedNoWrite(() => trial(director.client, { company_id: "FZ-2026-Y999999" }), -32003, "NotFound");
  });

  test("generated_by must be the caller's (NotOwner) and a current director (Forbidden)", async () => {
    await refusedNoWrite(() => trial(director.client, { generated_by: shareholder.resident }), -32002, "NotOwner");
    // a resident the director acts for through a proxy, but who holds no director role
    const helper = await person(t, company, "director");
    const plain = await person(t, company, "shareholder");
    await insertProxy(t, helper.resident, plain.resident);
    await refusedNoWrite(() => trial(helper.client, { generated_by: plain.resident }), -32002, "Forbidden");
    // a director whose role ended is no longer one
    const former = await person(t, company, "director", { valid_to: new Date("2026-11-01T00:00:00.000Z") });
    await insertRole(t, company, former.resident, "shareholder");
    await refusedNoWrite(() => trial(former.client, { generated_by: former.resident }), -32002, "Forbidden");
  });

  test("a proxy of a director may name that director as generated_by", async () => {
    const agent = await person(t, company, "director");
    const principal = await person(t, company, "director");
    await insertProxy(t, agent.resident, principal.resident);
    const r = await trial(agent.client, { generated_by: principal.resident });
    expect("result" in r && r.result.generated_by).toBe(principal.resident);
  });
});

describe("the other three reports", () => {
  test("balance sheet: assets = liabilities + equity", async () => {
    const r = await director.client.callOk("reportservice.generate_balance_sheet", {
      company_id: company,
      as_of_date: AS_OF,
      generated_by: director.resident,
    });
    expect(r).toMatchObject({ report_type: "balance_sheet", title: `Balance sheet as of ${AS_OF}`, as_of_date: AS_OF });
    const usd = JSON.parse(r.content).sections[1];
    expect(usd).toEqual(BALANCE_SHEET_AS_OF_USD);
  });

  test("income statement of October", async () => {
    const r = await director.client.callOk("reportservice.generate_income_statement", {
      company_id: company,
      period_start: OCT_START,
      period_end: OCT_END,
      generated_by: director.resident,
    });
    expect(r).toMatchObject({
      report_type: "income_statement",
      title: "Income statement 2026-10-01 to 2026-10-31",
      period_start: OCT_START,
      period_end: OCT_END,
      as_of_date: null,
    });
    expect(JSON.parse(r.content).sections[1]).toMatchObject({
      currency: "USD",
      revenue: 1800.5,
      tax_collected: 324.09,
      total_expenses: 200,
      net_income: 1600.5,
    });
  });

  test("cash flow of October", async () => {
    const r = await director.client.callOk("reportservice.generate_cash_flow", {
      company_id: company,
      period_start: OCT_START,
      period_end: OCT_END,
      generated_by: director.resident,
    });
    expect(JSON.parse(r.content).sections[1]).toEqual({
      currency: "USD",
      opening_cash: 5000,
      collections_from_customers: 590.59,
      treasury_inflows: 249.6,
      treasury_outflows: 1500,
      net_change: -659.81,
      closing_cash: 4340.19,
    });
  });

  test("a period that does not end after it starts, or ends in the future, is InvalidInput", async () => {
    for (const method of ["reportservice.generate_income_statement", "reportservice.generate_cash_flow"] as const) {
      const call = (period_start: string, period_end: string) => () =>
        director.client.call(method, {
          company_id: company,
          period_start,
          period_end,
          generated_by: director.resident,
        });
      await refusedNoWrite(call(OCT_END, OCT_START), -32006, "InvalidInput");
      await refusedNoWrite(call(OCT_START, OCT_START), -32006, "InvalidInput");
      await refusedNoWrite(call(OCT_START, "2026-12-01T00:00:00.000Z"), -32006, "InvalidInput");
    }
    await refusedNoWrite(
      () =>
        director.client.call("reportservice.generate_balance_sheet", {
          company_id: company,
          as_of_date: "2027-01-01T00:00:00.000Z",
          generated_by: director.resident,
        }),
      -32006,
      "InvalidInput",
    );
  });
});

describe("reading reports", () => {
  test("get_report: any current member reads the body and names; outsiders and unknown ids get NotFound", async () => {
    const made = await director.client.callOk("reportservice.generate_balance_sheet", {
      company_id: company,
      as_of_date: AS_OF,
      generated_by: director.resident,
    });
    const read = await shareholder.client.callOk("reportservice.get_report", { report_id: made.sid });
    expect(read).toEqual({
      ...made,
      company_name: expect.stringMatching(/^Test Company \d+ FZC$/),
      generated_by_name: "Ada Lovelace",
    });
    const hidden = errorOf(await outsider.client.call("reportservice.get_report", { report_id: made.sid }));
    expect(hidden).toMatchObject({ code: -32003, data: { type: "ReportError", variant: "NotFound" } });
    const unknown = errorOf(await director.client.call("reportservice.get_report", { report_id: "nope" }));
    expect(unknown.code).toBe(-32003);
  });

  test("get_report hides the name of an anonymous author", async () => {
    const anon = await person(t, company, "director", {});
    await sql(t, `update "digital_resident" set anonymity_enabled = true where resident_id = ?`, [anon.resident]);
    const made = await anon.client.callOk("reportservice.generate_trial_balance", {
      company_id: company,
      as_of_date: AS_OF,
      generated_by: anon.resident,
    });
    const read = await director.client.callOk("reportservice.get_report", { report_id: made.sid });
    expect(read.generated_by_name).toBeNull();
  });

  test("list_reports: newest first, without bodies, optionally of one type; outsiders NotFound", async () => {
    t.clock.advance(60);
    const a = await director.client.callOk("reportservice.generate_cash_flow", {
      company_id: company,
      period_start: OCT_START,
      period_end: OCT_END,
      generated_by: director.resident,
    });
    t.clock.advance(60);
    const b = await director.client.callOk("reportservice.generate_trial_balance", {
      company_id: company,
      as_of_date: AS_OF,
      generated_by: director.resident,
    });
    const all = await shareholder.client.callOk("reportservice.list_reports", { company_id: company });
    expect(all.items.slice(0, 2).map((i) => i.sid)).toEqual([b.sid, a.sid]);
    expect(all.items[0]).not.toHaveProperty("content");
    const [rows] = await sql(t, `select count(*)::int as n from "financial_report" where company_id = ?`, [company]);
    expect(all.items).toHaveLength(rows.n);
    const flows = await shareholder.client.callOk("reportservice.list_reports", {
      company_id: company,
      report_type: "cash_flow",
    });
    expect(flows.items.every((i) => i.report_type === "cash_flow")).toBe(true);
    expect(flows.items.map((i) => i.sid)).toContain(a.sid);
    const hidden = errorOf(await outsider.client.call("reportservice.list_reports", { company_id: company }));
    expect(hidden).toMatchObject({ code: -32003, data: { type: "ReportError", variant: "NotFound" } });
  });
});
