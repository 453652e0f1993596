import { beforeAll, describe, expect, test } from "vitest";
import type { TaxFilingResult } from "../../generated/types.ts";
import { type CallReply, type Client, PASSWORD, type TestApp } from "../support/app.ts";
import { insertProxy, person, type Staffed, staffedCompanies, startFinanceApp } from "../support/entities.ts";
import { COMPANY_MEMBERS, errorOf, oneAudience, refusedNoWrite as refused, sql } from "../support/helpers.ts";
import { draftFiling, freshYear, Q3, taxWrites } from "./support.ts";

let t: TestApp;
let company: string;
let other: string;
let director: Staffed["director"];
let shareholder: Staffed["shareholder"];
let outsider: Staffed["outsider"];
let admin: Client;

beforeAll(async () => {
  t = await startFinanceApp();
  ({ company, other, director, shareholder, outsider } = await staffedCompanies(t, "tax-owner@example.org"));
  admin = await t.admin();
});

const refusedNoWrite = (call: () => Promise<CallReply<unknown>>, code: number, variant: string | null) =>
  refused(() => taxWrites(t), call, code, variant === null ? null : { type: "TaxError", variant });

const submit = (f: TaxFilingResult, by = director, password = PASSWORD) =>
  by.client.call("taxservice.submit_filing", { filing_id: f.sid, submitted_by: by.resident, password });

async function submitted(): Promise<TaxFilingResult> {
  const f = await draftFiling(director.client, company);
  const r = await submit(f);
  if (!("result" in r)) throw new Error(JSON.stringify(r));
  return r.result;
}

describe("taxservice.create_filing", () => {
  test("a director opens a draft with zero figures, the configured rate and deadline, and its audience row", async () => {
    const f = await draftFiling(director.client, company, Q3);
    expect(f).toEqual({
      sid: expect.any(String),
      company_id: company,
      ...Q3,
      due_date: "2026-10-31T00:00:00.000Z",
      status: "draft",
      currency: "USD",
      gross_revenue: 0,
      cost_of_goods_sold: 0,
      operating_expenses: 0,
      gross_profit: 0,
      taxable_income: 0,
      tax_rate: 0.15,
      tax_due: 0,
      submitted_by: null,
      submitted_at: null,
      reference_number: null,
      rejection_reason: null,
      amends_filing_id: null,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    const aud = await oneAudience(t, f.sid);
    expect(aud).toMatchObject({
      document_type: "tax_filing",
      company_id: company,
      audience_computation: "tax_filing_company_members",
      created_by: director.client.userId,
    });
    expect([...aud.classification].sort()).toEqual(COMPANY_MEMBERS);
  });

  test("a period that is not one calendar period of the type is InvalidInput, nothing written", async () => {
    const create = (p: Record<string, string>) => () =>
      director.client.call("taxservice.create_filing", { company_id: company, ...Q3, ...p } as never);
    await refusedNoWrite(
      create({ period_start: "2026-08-01T00:00:00.000Z", period_end: "2026-11-01T00:00:00.000Z" }),
      -32006,
      "InvalidInput",
    );
    await refusedNoWrite(create({ period_end: "2026-09-01T00:00:00.000Z" }), -32006, "InvalidInput");
    await refusedNoWrite(create({ period_end: "2026-07-01T00:00:00.000Z" }), -32006, "InvalidInput");
    await refusedNoWrite(create({ filing_type: "annual" }), -32006, "InvalidInput");
    await refusedNoWrite(create({ filing_type: "weekly" }), -32602, null);
  });

  test("a second live filing for the period is AlreadyExists; after a rejection the period is free again", async () => {
    const period = freshYear();
    const first = await draftFiling(director.client, company, period);
    const again = () => director.client.call("taxservice.create_filing", { company_id: company, ...period });
    await refusedNoWrite(again, -32005, "AlreadyExists");
    expect("result" in (await submit(first))).toBe(true);
    await refusedNoWrite(again, -32005, "AlreadyExists");
    await admin.callOk("taxservice.accept_filing", { filing_id: first.sid });
    await refusedNoWrite(again, -32005, "AlreadyExists");
    // another company may file the same period
    expect((await draftFiling(outsider.client, other, period)).status).toBe("draft");

    const period2 = freshYear();
    const f2 = await draftFiling(director.client, company, period2);
    await submit(f2);
    await admin.callOk("taxservice.reject_filing", { filing_id: f2.sid, reason: "figures missing" });
    const fresh = await draftFiling(director.client, company, period2);
    expect(fresh).toMatchObject({ status: "draft", amends_filing_id: null });
  });

  test("concurrent creates for one period leave one filing", async () => {
    const period = freshYear();
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        director.client.call("taxservice.create_filing", { company_id: company, ...period }),
      ),
    );
    expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    for (const r of replies.filter((x) => "error" in x)) {
      expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "AlreadyExists" } });
    }
    const [{ n }] = await sql(
      t,
      `select count(*)::int as n from "tax_filing" where company_id = ? and period_start = ?`,
      [company, period.period_start],
    );
    expect(n).toBe(1);
  });

  test("a shareholder is Forbidden; another company's director and an unknown company NotFound", async () => {
    const create =
      (c: Client, company_id = company) =>
      () =>
        c.call("taxservice.create_filing", { company_id, ...freshYear() });
    await refusedNoWrite(create(shareholder.client), -32002, "Forbidden");
    await refusedNoWrite(create(outsider.client), -32003, "NotFound");
    await refusedNoWrite(create(director.client, "FZ-2026-Y999999"), -32003, "NotFound");
  });

  test("an administrator's session may open a filing and it is recorded", async () => {
    const f = await draftFiling(admin, company);
    const rows = await sql(t, `select action, target_type from "admin_action" where target_id = ?`, [f.sid]);
    expect(rows).toEqual([{ action: "create_tax_filing", target_type: "tax_filing" }]);
  });
});

describe("taxservice.update_filing", () => {
  test("a director sets the figures of a draft; the server computes profit, taxable income and tax due", async () => {
    const f = await draftFiling(director.client, company);
    t.clock.advance(5);
    const u = await director.client.callOk("taxservice.update_filing", {
      filing_id: f.sid,
      gross_revenue: 1000.1,
      cost_of_goods_sold: 200.05,
      operating_expenses: 100.02,
    });
    expect(u).toMatchObject({
      gross_revenue: 1000.1,
      cost_of_goods_sold: 200.05,
      operating_expenses: 100.02,
      gross_profit: 800.05,
      taxable_income: 700.03,
      tax_rate: 0.15,
      tax_due: 105,
      status: "draft",
      updated_at: t.clock.now().toISOString(),
    });
    const [row] = await sql(
      t,
      `select gross_revenue::text as g, taxable_income::text as ti, tax_due::text as td from "tax_filing" where sid = ?`,
      [f.sid],
    );
    expect(row).toEqual({ g: "1000.10", ti: "700.03", td: "105.00" });
    // a loss: taxable income floors at 0, gross profit may be negative
    const loss = await director.client.callOk("taxservice.update_filing", {
      filing_id: f.sid,
      gross_revenue: 10,
      cost_of_goods_sold: 20,
      operating_expenses: 0,
    });
    expect(loss).toMatchObject({ gross_profit: -10, taxable_income: 0, tax_due: 0 });
  });

  test("bad figures are InvalidAmount, figures above the declared maximum invalid params; nothing written", async () => {
    const f = await draftFiling(director.client, company);
    const update = (bad: Record<string, number>) => () =>
      director.client.call("taxservice.update_filing", {
        filing_id: f.sid,
        gross_revenue: 1,
        cost_of_goods_sold: 1,
        operating_expenses: 1,
        ...bad,
      });
    for (const bad of [{ gross_revenue: -1 }, { cost_of_goods_sold: 0.001 }]) {
      await refusedNoWrite(update(bad), -32006, "InvalidAmount");
    }
    await refusedNoWrite(update({ operating_expenses: 1e20 }), -32602, null);
  });

  test("only a draft; only a director; another company's filing is NotFound", async () => {
    const figures = { gross_revenue: 1, cost_of_goods_sold: 0, operating_expenses: 0 };
    const s = await submitted();
    await refusedNoWrite(
      () => director.client.call("taxservice.update_filing", { filing_id: s.sid, ...figures }),
      -32005,
      "InvalidState",
    );
    const f = await draftFiling(director.client, company);
    await refusedNoWrite(
      () => shareholder.client.call("taxservice.update_filing", { filing_id: f.sid, ...figures }),
      -32002,
      "Forbidden",
    );
    await refusedNoWrite(
      () => outsider.client.call("taxservice.update_filing", { filing_id: f.sid, ...figures }),
      -32003,
      "NotFound",
    );
    await refusedNoWrite(
      () => director.client.call("taxservice.update_filing", { filing_id: "nope", ...figures }),
      -32003,
      "NotFound",
    );
  });
});

describe("taxservice.submit_filing", () => {
  test("a director submits with the password: reference numbers in order, figures frozen, once only", async () => {
    const a = await draftFiling(director.client, company);
    await director.client.callOk("taxservice.update_filing", {
      filing_id: a.sid,
      gross_revenue: 500,
      cost_of_goods_sold: 0,
      operating_expenses: 0,
    });
    const before = await sql(t, `select value from "counter" where name = 'FZ-TAX-2026'`);
    const next = Number(before[0]?.value ?? 0) + 1;
    const r = await submit(a);
    expect("result" in r && r.result).toMatchObject({
      status: "submitted",
      submitted_by: director.resident,
      submitted_at: t.clock.now().toISOString(),
      reference_number: `FZ-TAX-2026-${String(next).padStart(6, "0")}`,
      tax_due: 75,
    });
    const b = await submitted();
    expect(b.reference_number).toBe(`FZ-TAX-2026-${String(next + 1).padStart(6, "0")}`);
    await refusedNoWrite(() => submit(a), -32005, "InvalidState");
  });

  test("wrong or missing password, someone else's resident, a non-director resident: refused, nothing written", async () => {
    const f = await draftFiling(director.client, company);
    await refusedNoWrite(() => submit(f, director, "wrong password 123"), -32002, "WrongPassword");
    await refusedNoWrite(
      () =>
        director.client.call("taxservice.submit_filing", {
          filing_id: f.sid,
          submitted_by: director.resident,
        } as never),
      -32002,
      "PasswordRequired",
    );
    await refusedNoWrite(
      () =>
        director.client.call("taxservice.submit_filing", {
          filing_id: f.sid,
          submitted_by: shareholder.resident,
          password: PASSWORD,
        }),
      -32002,
      "NotOwner",
    );
    // the shareholder submits as themself: a member, not a director
    await refusedNoWrite(() => submit(f, shareholder), -32002, "Forbidden");
    // acting for a shareholder through a proxy does not make them a director
    const agent = await person(t, company, "director");
    const plain = await person(t, company, "shareholder");
    await insertProxy(t, agent.resident, plain.resident);
    await refusedNoWrite(
      () =>
        agent.client.call("taxservice.submit_filing", {
          filing_id: f.sid,
          submitted_by: plain.resident,
          password: PASSWORD,
        }),
      -32002,
      "Forbidden",
    );
    // another company's director
    await refusedNoWrite(() => submit(f, outsider), -32003, "NotFound");
    expect((await director.client.callOk("taxservice.get_filing", { filing_id: f.sid })).status).toBe("draft");
  });
});

describe("administrator review", () => {
  test("accept: submitted -> accepted, with an AdminAction", async () => {
    const s = await submitted();
    const a = await admin.callOk("taxservice.accept_filing", { filing_id: s.sid });
    expect(a).toMatchObject({ status: "accepted", reference_number: s.reference_number });
    const rows = await sql(t, `select action, target_type, admin_email from "admin_action" where target_id = ?`, [
      s.sid,
    ]);
    expect(rows).toEqual([
      { action: "accept_tax_filing", target_type: "tax_filing", admin_email: "admin@example.org" },
    ]);
    await refusedNoWrite(() => admin.call("taxservice.accept_filing", { filing_id: s.sid }), -32005, "InvalidState");
    await refusedNoWrite(
      () => admin.call("taxservice.reject_filing", { filing_id: s.sid, reason: "late" }),
      -32005,
      "InvalidState",
    );
  });

  test("reject: submitted -> rejected with the trimmed reason; a blank reason is InvalidInput", async () => {
    const s = await submitted();
    await refusedNoWrite(
      () => admin.call("taxservice.reject_filing", { filing_id: s.sid, reason: "   " }),
      -32006,
      "InvalidInput",
    );
    await refusedNoWrite(() => admin.call("taxservice.reject_filing", { filing_id: s.sid, reason: "" }), -32602, null);
    const r = await admin.callOk("taxservice.reject_filing", { filing_id: s.sid, reason: "  revenue understated " });
    expect(r).toMatchObject({ status: "rejected", rejection_reason: "revenue understated" });
    const [row] = await sql(t, `select action, details from "admin_action" where target_id = ?`, [s.sid]);
    expect(row.action).toBe("reject_tax_filing");
    expect(JSON.parse(row.details)).toMatchObject({ company_id: company, reason: "revenue understated" });
  });

  test("a draft cannot be reviewed; directors cannot review; unknown filings are NotFound", async () => {
    const f = await draftFiling(director.client, company);
    await refusedNoWrite(() => admin.call("taxservice.accept_filing", { filing_id: f.sid }), -32005, "InvalidState");
    const s = await submitted();
    await refusedNoWrite(
      () => director.client.call("taxservice.accept_filing", { filing_id: s.sid }),
      -32002,
      "AdminOnly",
    );
    await refusedNoWrite(
      () => director.client.call("taxservice.reject_filing", { filing_id: s.sid, reason: "x" }),
      -32002,
      "AdminOnly",
    );
    await refusedNoWrite(() => admin.call("taxservice.accept_filing", { filing_id: "nope" }), -32003, "NotFound");
  });
});

describe("amendments", () => {
  test("an amendment of a submitted filing moves it to amended; an accepted one can be amended too", async () => {
    const s = await submitted();
    const period = { filing_type: s.filing_type, period_start: s.period_start, period_end: s.period_end };
    const amendment = await director.client.callOk("taxservice.create_filing", {
      company_id: company,
      ...period,
      amends_filing_id: s.sid,
    });
    expect(amendment).toMatchObject({ status: "draft", amends_filing_id: s.sid, ...period });
    expect((await director.client.callOk("taxservice.get_filing", { filing_id: s.sid })).status).toBe("amended");
    // the amendment is submitted and accepted, then amended again
    await submit(amendment);
    await admin.callOk("taxservice.accept_filing", { filing_id: amendment.sid });
    const second = await director.client.callOk("taxservice.create_filing", {
      company_id: company,
      ...period,
      amends_filing_id: amendment.sid,
    });
    expect(second.amends_filing_id).toBe(amendment.sid);
    expect((await director.client.callOk("taxservice.get_filing", { filing_id: amendment.sid })).status).toBe(
      "amended",
    );
  });

  test("concurrent amendments of one filing: one wins, the original is amended once", async () => {
    const s = await submitted();
    const period = { filing_type: s.filing_type, period_start: s.period_start, period_end: s.period_end };
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        director.client.call("taxservice.create_filing", { company_id: company, ...period, amends_filing_id: s.sid }),
      ),
    );
    expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    for (const r of replies.filter((x) => "error" in x)) {
      expect(["InvalidState", "AlreadyExists"]).toContain(errorOf(r).data?.variant);
    }
    const rows = await sql(
      t,
      `select status from "tax_filing" where company_id = ? and period_start = ? order by sid`,
      [company, s.period_start],
    );
    expect(rows.map((r) => r.status)).toEqual(["amended", "draft"]);
  });

  test("refused: a draft, amended or rejected original (InvalidState), another period (InvalidInput), another company's (NotFound)", async () => {
    const periodOf = (f: TaxFilingResult) => ({
      filing_type: f.filing_type,
      period_start: f.period_start,
      period_end: f.period_end,
    });
    const amend =
      (original: string, period: Record<string, string>, company_id = company, c = director.client) =>
      () =>
        c.call("taxservice.create_filing", { company_id, ...period, amends_filing_id: original } as never);
    const draft = await draftFiling(director.client, company);
    await refusedNoWrite(amend(draft.sid, periodOf(draft)), -32005, "InvalidState");
    const s = await submitted();
    await refusedNoWrite(amend(s.sid, freshYear()), -32006, "InvalidInput");
    await refusedNoWrite(amend(s.sid, periodOf(s), other, outsider.client), -32003, "NotFound");
    await refusedNoWrite(amend("nope", periodOf(s)), -32003, "NotFound");
    expect("result" in (await amend(s.sid, periodOf(s))())).toBe(true);
    await refusedNoWrite(amend(s.sid, periodOf(s)), -32005, "InvalidState");
    const rejected = await submitted();
    await admin.callOk("taxservice.reject_filing", { filing_id: rejected.sid, reason: "no" });
    await refusedNoWrite(amend(rejected.sid, periodOf(rejected)), -32005, "InvalidState");
  });
});
