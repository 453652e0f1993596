import { beforeAll, describe, expect, test } from "vitest";
import { type Client, PASSWORD, type TestApp } from "../support/app.ts";
import { insertCompany, person, startFinanceApp } from "../support/entities.ts";
import { draftFiling, freshYear, taxWrites } from "../tax/support.ts";
import { BLOCKED, refusedByStatus, setStatus } from "./support.ts";

// The company status guard on the company's own TaxService writes: a voided or suspended company creates, updates,
// submits and generates documents for no filing (InvalidState naming the status, nothing written); reads go on;
// an active company files.

let t: TestApp;
let company: string;
let director: { client: Client; resident: string };
beforeAll(async () => {
  t = await startFinanceApp();
  const owner = await t.register("guard-tax-owner@example.org");
  company = await insertCompany(t, owner.userId);
  director = await person(t, company, "director");
});

describe("tax filing writes and the company status", () => {
  test.each(BLOCKED)("a %s company: create, update, submit and generate_document are refused", async (status) => {
    await setStatus(t, company, "active");
    const f = await draftFiling(director.client, company);
    await setStatus(t, company, status);
    const c = director.client;
    const refused = (call: () => Promise<any>) => refusedByStatus(() => taxWrites(t), call, "TaxError", status);
    await refused(() => c.call("taxservice.create_filing", { company_id: company, ...freshYear() }));
    await refused(() =>
      c.call("taxservice.update_filing", {
        filing_id: f.sid,
        gross_revenue: 10,
        cost_of_goods_sold: 0,
        operating_expenses: 0,
      }),
    );
    await refused(() =>
      c.call("taxservice.submit_filing", { filing_id: f.sid, submitted_by: director.resident, password: PASSWORD }),
    );
    await refused(() => c.call("taxservice.generate_document", { filing_id: f.sid, document_type: "tax_return" }));
    expect((await c.callOk("taxservice.get_filing", { filing_id: f.sid })).status).toBe("draft");
  });

  test("an active company files", async () => {
    await setStatus(t, company, "active");
    const f = await draftFiling(director.client, company);
    const u = await director.client.callOk("taxservice.update_filing", {
      filing_id: f.sid,
      gross_revenue: 10,
      cost_of_goods_sold: 0,
      operating_expenses: 0,
    });
    expect(u.gross_revenue).toBe(10);
  });
});
