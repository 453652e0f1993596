import { beforeAll, describe, expect, test } from "vitest";
import { DATA, draft, insertCompany, person, startInvoiceApp, writes } from "../invoices/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { BLOCKED, refusedByStatus, setStatus } from "./support.ts";

// The company status guard on InvoiceService writes of a company issuer: a voided or suspended company issues,
// changes, deletes, sends and marks paid nothing (InvalidState naming the status, nothing written); reads go on;
// an active company's invoices are written.

let t: TestApp;
let company: string;
let dir: { client: Client; resident: string };
beforeAll(async () => {
  t = await startInvoiceApp();
  const owner = await t.register("guard-inv-owner@example.org");
  company = await insertCompany(t, owner.userId);
  dir = await person(t, company, "director");
});

describe("invoice writes and the company status", () => {
  test.each(BLOCKED)("a %s company: create, update, delete, send and mark paid are refused", async (status) => {
    await setStatus(t, company, "active");
    const open = await draft(dir.client, company);
    const sent = await draft(dir.client, company);
    await dir.client.callOk("invoiceservice.send_draft", { invoice_id: sent.sid });
    await setStatus(t, company, status);
    const c = dir.client;
    const refused = (call: () => Promise<any>) => refusedByStatus(() => writes(t), call, "InvoiceError", status);
    await refused(() => c.call("invoiceservice.create", { fzc_id: company, data: DATA }));
    await refused(() => c.call("invoiceservice.update", { invoice_id: open.sid, data: { description: "changed" } }));
    await refused(() => c.call("invoiceservice.delete", { fzc_id: company, invoice_id: open.sid }));
    await refused(() => c.call("invoiceservice.send_draft", { invoice_id: open.sid }));
    await refused(() => c.call("invoiceservice.send_invoice", { fzc_id: company, data: DATA }));
    await refused(() =>
      c.call("invoiceservice.mark_paid", {
        invoice_id: sent.sid,
        payment_method: "bank_transfer",
        payment_reference: "TT-1",
      }),
    );
    expect((await c.callOk("invoiceservice.get", { invoice_id: open.sid })).status).toBe("draft");
  });

  test("an active company's invoices are written", async () => {
    await setStatus(t, company, "active");
    const inv = await draft(dir.client, company);
    const sent = await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    expect(sent.status).toBe("sent");
  });
});
