import { beforeAll, describe, expect, test } from "vitest";
import { DATA, draft, writes } from "../expenses/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, person, startFinanceApp } from "../support/entities.ts";
import { BLOCKED, refusedByStatus, setStatus } from "./support.ts";

// The company status guard on ExpenseService writes: a voided or suspended company's expenses are neither created
// nor changed (InvalidState naming the status, nothing written); an active company's are.

let t: TestApp;
let company: string;
let dirA: { client: Client; resident: string };
let dirB: { client: Client; resident: string };
beforeAll(async () => {
  t = await startFinanceApp();
  const owner = await t.register("guard-exp-owner@example.org");
  company = await insertCompany(t, owner.userId);
  dirA = await person(t, company, "director");
  dirB = await person(t, company, "director");
});

describe("expense writes and the company status", () => {
  test.each(BLOCKED)("a %s company: create, update, delete, submit, approve and reject are refused", async (status) => {
    await setStatus(t, company, "active");
    const open = await draft(dirA.client, company);
    const sent = await draft(dirA.client, company);
    await dirA.client.callOk("expenseservice.submit", { expense_id: sent.sid });
    await setStatus(t, company, status);
    const w = () => writes(t);
    const refused = (call: () => Promise<any>) => refusedByStatus(w, call, "InvoiceError", status);
    const a = dirA.client;
    await refused(() => a.call("expenseservice.create", { fzc_id: company, data: DATA }));
    await refused(() => a.call("expenseservice.update", { expense_id: open.sid, data: { amount: 7 } }));
    await refused(() => a.call("expenseservice.delete", { fzc_id: company, expense_id: open.sid }));
    await refused(() => a.call("expenseservice.submit", { expense_id: open.sid }));
    const b = dirB.client;
    await refused(() => b.call("expenseservice.approve", { expense_id: sent.sid, approved_by: dirB.resident }));
    await refused(() =>
      b.call("expenseservice.reject", { expense_id: sent.sid, rejected_by: dirB.resident, reason: "no" }),
    );
  });

  test("an active company's expenses are written", async () => {
    await setStatus(t, company, "active");
    const e = await draft(dirA.client, company);
    await dirA.client.callOk("expenseservice.submit", { expense_id: e.sid });
    const approved = await dirB.client.callOk("expenseservice.approve", {
      expense_id: e.sid,
      approved_by: dirB.resident,
    });
    expect(approved.status).toBe("approved");
  });
});
