import { createHash } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import type { TaxFilingResult } from "../../generated/types.ts";
import type { TestApp } from "../support/app.ts";
import { insertCompany, person, type Staffed, staffedCompanies, startFinanceApp } from "../support/entities.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { draftFiling, Q2, Q3, submitFiling, taxWrites } from "./support.ts";

let t: TestApp;
let company: string;
let director: Staffed["director"];
let shareholder: Staffed["shareholder"];
let outsider: Staffed["outsider"];

beforeAll(async () => {
  t = await startFinanceApp();
  ({ company, director, shareholder, outsider } = await staffedCompanies(t, "taxr-owner@example.org"));
});

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

async function withFigures(): Promise<TaxFilingResult> {
  const f = await draftFiling(director.client, company);
  return director.client.callOk("taxservice.update_filing", {
    filing_id: f.sid,
    gross_revenue: 1000.1,
    cost_of_goods_sold: 200.05,
    operating_expenses: 100.02,
  });
}

describe("documents", () => {
  test("generate_document renders the filing's figures, stores the sha256 of the text and an audience row", async () => {
    const f = await withFigures();
    const doc = await director.client.callOk("taxservice.generate_document", {
      filing_id: f.sid,
      document_type: "tax_return",
    });
    expect(doc).toMatchObject({
      filing_id: f.sid,
      company_id: company,
      document_type: "tax_return",
      title: `Tax return: annual period ${f.period_start.slice(0, 10)} to ${f.period_start.slice(0, 4)}-12-31`,
      content_format: "markdown",
      created_at: t.clock.now().toISOString(),
    });
    expect(doc.content_hash).toBe(sha256(doc.content));
    expect(doc.content).toContain("| Gross revenue | 1000.10 USD |");
    expect(doc.content).toContain("| Taxable income | 700.03 USD |");
    expect(doc.content).toContain("| Tax due (15%) | 105.00 USD |");
    const [stored] = await sql(t, `select content, content_hash from "tax_document" where sid = ?`, [doc.sid]);
    expect(stored).toEqual({ content: doc.content, content_hash: doc.content_hash });
    const aud = await sql(
      t,
      `select document_type, company_id, audience_computation from "document_audience" where document_ref = ?`,
      [doc.sid],
    );
    expect(aud).toEqual([
      { document_type: "tax_document", company_id: company, audience_computation: "tax_document_company_members" },
    ]);

    const comp = await director.client.callOk("taxservice.generate_document", {
      filing_id: f.sid,
      document_type: "computation",
    });
    expect(comp.content).toContain("= 700.03 USD");
    expect(comp.content_hash).toBe(sha256(comp.content));
  });

  test("a receipt only once submitted, and it carries the reference number", async () => {
    const f = await withFigures();
    const before = await taxWrites(t);
    const early = errorOf(
      await director.client.call("taxservice.generate_document", { filing_id: f.sid, document_type: "receipt" }),
    );
    expect(early).toMatchObject({ code: -32005, data: { type: "TaxError", variant: "InvalidState" } });
    expect(await taxWrites(t)).toEqual(before);
    const s = await submitFiling(director, f.sid);
    const receipt = await director.client.callOk("taxservice.generate_document", {
      filing_id: f.sid,
      document_type: "receipt",
    });
    expect(receipt.content).toContain(`Reference number: ${s.reference_number}`);
  });

  test("an unknown type is InvalidInput; a shareholder is Forbidden; an outsider NotFound; nothing written", async () => {
    const f = await withFigures();
    const cases = [
      [director.client, "invoice", -32006, "InvalidInput"],
      [shareholder.client, "tax_return", -32002, "Forbidden"],
      [outsider.client, "tax_return", -32003, "NotFound"],
    ] as const;
    for (const [client, document_type, code, variant] of cases) {
      const before = await taxWrites(t);
      const err = errorOf(await client.call("taxservice.generate_document", { filing_id: f.sid, document_type }));
      expect(err).toMatchObject({ code, data: { type: "TaxError", variant } });
      expect(await taxWrites(t)).toEqual(before);
    }
  });

  test("list_documents: newest first with content, for any member; outsiders NotFound", async () => {
    const f = await withFigures();
    const a = await director.client.callOk("taxservice.generate_document", {
      filing_id: f.sid,
      document_type: "tax_return",
    });
    t.clock.advance(1);
    const b = await director.client.callOk("taxservice.generate_document", {
      filing_id: f.sid,
      document_type: "computation",
    });
    const list = await shareholder.client.callOk("taxservice.list_documents", { filing_id: f.sid });
    expect(list.items).toEqual([b, a]);
    const err = errorOf(await outsider.client.call("taxservice.list_documents", { filing_id: f.sid }));
    expect(err).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });
});

describe("reading filings", () => {
  test("get_filing: a member reads figures and document summaries; outsiders and unknown ids NotFound", async () => {
    const f = await withFigures();
    const doc = await director.client.callOk("taxservice.generate_document", {
      filing_id: f.sid,
      document_type: "tax_return",
    });
    const read = await shareholder.client.callOk("taxservice.get_filing", { filing_id: f.sid });
    const { content: _c, content_format: _f, ...summary } = doc;
    expect(read).toEqual({ ...f, documents: [summary] });
    for (const [client, id] of [
      [outsider.client, f.sid],
      [director.client, "nope"],
    ] as const) {
      expect(errorOf(await client.call("taxservice.get_filing", { filing_id: id }))).toMatchObject({
        code: -32003,
        data: { type: "TaxError", variant: "NotFound" },
      });
    }
  });

  test("list_filings: newest period first, optionally in one status; outsiders NotFound", async () => {
    const q3 = await draftFiling(director.client, company, Q3);
    const q2 = await draftFiling(director.client, company, Q2);
    await submitFiling(director, q2.sid);
    const all = await shareholder.client.callOk("taxservice.list_filings", { company_id: company });
    const starts = all.items.map((i) => i.period_start);
    expect(starts).toEqual([...starts].sort().reverse());
    expect(all.items).toHaveLength(await count(t, "tax_filing", "company_id = ?", [company]));
    const subs = await shareholder.client.callOk("taxservice.list_filings", {
      company_id: company,
      status: "submitted",
    });
    expect(subs.items.map((i) => i.sid)).toContain(q2.sid);
    expect(subs.items.map((i) => i.sid)).not.toContain(q3.sid);
    expect(subs.items.every((i) => i.status === "submitted")).toBe(true);
    const err = errorOf(await outsider.client.call("taxservice.list_filings", { company_id: company }));
    expect(err).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });
});

describe("taxservice.get_deadlines", () => {
  test("unfiled past periods since the company was created and the current period of each configured type", async () => {
    const young = await insertCompany(t, director.client.userId);
    await sql(t, `update "zone_company" set created_at = ? where company_id = ?`, ["2026-02-10T08:00:00.000Z", young]);
    const dir = await person(t, young, "director");
    const q2 = await draftFiling(dir.client, young, Q2);
    await submitFiling(dir, q2.sid);
    const q1 = await draftFiling(dir.client, young, {
      filing_type: "quarterly",
      period_start: "2026-01-01T00:00:00.000Z",
      period_end: "2026-04-01T00:00:00.000Z",
    });
    const r = await dir.client.callOk("taxservice.get_deadlines", { company_id: young });
    expect(r).toEqual({
      company_id: young,
      items: [
        {
          filing_type: "quarterly",
          period_start: "2026-01-01T00:00:00.000Z",
          period_end: "2026-04-01T00:00:00.000Z",
          due_date: "2026-05-01T00:00:00.000Z",
          filing_id: q1.sid,
          filing_status: "draft",
          overdue: true,
        },
        {
          filing_type: "quarterly",
          period_start: "2026-07-01T00:00:00.000Z",
          period_end: "2026-10-01T00:00:00.000Z",
          due_date: "2026-10-31T00:00:00.000Z",
          filing_id: null,
          filing_status: null,
          overdue: true,
        },
        {
          filing_type: "quarterly",
          period_start: "2026-10-01T00:00:00.000Z",
          period_end: "2027-01-01T00:00:00.000Z",
          due_date: "2027-01-31T00:00:00.000Z",
          filing_id: null,
          filing_status: null,
          overdue: false,
        },
        {
          filing_type: "annual",
          period_start: "2026-01-01T00:00:00.000Z",
          period_end: "2027-01-01T00:00:00.000Z",
          due_date: "2027-04-01T00:00:00.000Z",
          filing_id: null,
          filing_status: null,
          overdue: false,
        },
      ],
    });
    const err = errorOf(await outsider.client.call("taxservice.get_deadlines", { company_id: young }));
    expect(err).toMatchObject({ code: -32003, data: { type: "TaxError", variant: "NotFound" } });
  });

  test("a type the company filed under is listed too: October's monthly period is overdue (due 2026-11-21), November's not", async () => {
    const young = await insertCompany(t, director.client.userId);
    await sql(t, `update "zone_company" set created_at = ? where company_id = ?`, ["2026-10-15T00:00:00.000Z", young]);
    const dir = await person(t, young, "director");
    await draftFiling(dir.client, young, {
      filing_type: "monthly",
      period_start: "2026-10-01T00:00:00.000Z",
      period_end: "2026-11-01T00:00:00.000Z",
    });
    const monthly = async () =>
      (await dir.client.callOk("taxservice.get_deadlines", { company_id: young })).items.filter(
        (i) => i.filing_type === "monthly",
      );
    expect((await monthly()).map((i) => [i.period_start.slice(0, 7), i.overdue])).toEqual([
      ["2026-10", true],
      ["2026-11", false],
    ]);
  });
});
