import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { listFor, targetCast } from "../support/audit-targets.ts";
import { insertCompany, person } from "../support/entities.ts";
import { sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

// userauditlogservice.list_for_target for the company target types of issue 16: `company`, `company_role`,
// `contract` (a company contract) and `business_document`. The company's owner and its current directors and
// founders see the rows (for a role, also the holder of that role); shareholders, past directors and strangers get
// NotFound, rows or not, as for the earlier target types.

let t: TestApp;
let admin: Client;
let owner: Client;
let companyId: string;
let director: Client;
let founder: Client;
let shareholder: Client;
let pastDirector: Client;
let stranger: Client;
beforeAll(async () => {
  ({ t, admin, owner, companyId, director, founder, shareholder, pastDirector, stranger } = await targetCast("target"));
});

async function logRow(ref: string, type: "company" | "company_role" | "contract" | "business_document") {
  await admin.callOk("userauditlogservice.log", {
    subject_id: admin.userId,
    action: "other",
    target_ref: ref,
    target_type: type,
    allowed: true,
    context: "{}",
  });
}

/** Every allowed caller sees the row; every refused one gets NotFound (-32003). */
async function expectOwners(ref: string, type: string, allowed: Client[], refused: Client[]) {
  for (const c of allowed) expect(await listFor(c, ref), c.email).toEqual([["other", type]]);
  for (const c of refused) expect(await listFor(c, ref), c.email).toBe(-32003);
}

describe("audit targets of company records", () => {
  test("company: owner, directors and founders; not shareholders, past directors or strangers", async () => {
    await logRow(companyId, "company");
    await expectOwners(companyId, "company", [owner, director, founder], [shareholder, pastDirector, stranger]);
  });

  test("company_role: the company's owners and the role's holder", async () => {
    const holder = await person(t, companyId, "shareholder");
    const [role] = await sql<{ sid: string }>(t, `select sid from company_role where subject_id = ?`, [
      holder.resident,
    ]);
    const sid = String(role?.sid);
    await logRow(sid, "company_role");
    await expectOwners(sid, "company_role", [owner, director, founder, holder.client], [shareholder, stranger]);
  });

  test("contract: a company contract's owners; a registration contract id has none", async () => {
    const row = await insertRow(t.app.runtime.orm, "Contract", {
      fzc_id: companyId,
      name: "Office lease",
      contract_type: "lease",
      counterparty: "Landlord Ltd",
      start_date: new Date("2026-01-01T00:00:00.000Z"),
    });
    const sid = String(row["sid"]);
    await logRow(sid, "contract");
    await expectOwners(sid, "contract", [owner, director, founder], [shareholder, pastDirector, stranger]);
    await logRow("terms_of_service", "contract");
    await expectOwners("terms_of_service", "contract", [], [owner, director]);
  });

  test("business_document: the company's owners", async () => {
    const row = await insertRow(t.app.runtime.orm, "BusinessDocument", {
      company_id: companyId,
      document_type: "other",
      name: "Board minutes",
      uploaded_by: owner.userId,
    });
    const sid = String(row["sid"]);
    await logRow(sid, "business_document");
    await expectOwners(sid, "business_document", [owner, director, founder], [shareholder, stranger]);
  });

  test("without rows yet: the owner gets an empty list, a stranger NotFound", async () => {
    const other = await insertCompany(t, owner.userId);
    expect(await listFor(owner, other)).toEqual([]);
    expect(await listFor(stranger, other)).toBe(-32003);
    expect(await listFor(director, other)).toBe(-32003);
  });
});
