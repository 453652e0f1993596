import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { draft, insertCompany, person, refusedNoWrite, startInvoiceApp } from "./support.ts";

/** Issue 30: InvoiceStatus `cancelled` is reached through invoiceservice.cancel_invoice. */
let t: TestApp;
let company: string;
let dir: { client: Client; resident: string };
let member: { client: Client; resident: string };
let outsider: { client: Client; resident: string };
let payer: Client;

beforeAll(async () => {
  t = await startInvoiceApp();
  const owner = await t.register("cancel-owner@example.org");
  company = await insertCompany(t, owner.userId);
  dir = await person(t, company, "director");
  member = await person(t, company, "shareholder");
  outsider = await person(t, null, null);
  payer = await t.register("cancel-payer@example.org");
});

const sentInvoice = async () => {
  const inv = await draft(dir.client, company, { recipient_email: "cancel-payer@example.org" });
  return dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
};
const cancel = (c: Client, invoice_id: string, reason = "Sent to the wrong customer") =>
  c.call("invoiceservice.cancel_invoice", { invoice_id, reason });

describe("invoiceservice.cancel_invoice", () => {
  test("a sent invoice becomes cancelled with when and why, as every read shows", async () => {
    const inv = await sentInvoice();
    t.clock.advance(60);
    const r = await cancel(dir.client, inv.sid, "  Sent to the wrong customer ");
    if (!("result" in r)) throw new Error(JSON.stringify(r));
    expect(r.result).toMatchObject({
      status: "cancelled",
      cancelled_at: t.clock.now().toISOString(),
      cancellation_reason: "Sent to the wrong customer",
      paid_at: null,
    });
    expect(await dir.client.callOk("invoiceservice.get", { invoice_id: inv.sid })).toEqual(r.result);
  });

  test("a cancelled invoice cannot be paid: the recipient's payment is refused InvalidState", async () => {
    const inv = await sentInvoice();
    await cancel(dir.client, inv.sid);
    const paid = await payer.call("paymentservice.initiate_invoice_payment", {
      invoice_id: inv.sid,
      provider: "cardpsp",
    });
    expect(paid).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState" } } });
    const marked = await dir.client.call("invoiceservice.mark_paid", { invoice_id: inv.sid, payment_method: "manual" });
    expect(marked).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState" } } });
  });

  test("twice, a draft or a paid invoice: InvalidState, nothing written", async () => {
    const once = await sentInvoice();
    await cancel(dir.client, once.sid);
    await refusedNoWrite(t, () => cancel(dir.client, once.sid), -32005, "InvalidState");
    const drafted = await draft(dir.client, company);
    await refusedNoWrite(t, () => cancel(dir.client, drafted.sid), -32005, "InvalidState");
    const paid = await sentInvoice();
    await dir.client.callOk("invoiceservice.mark_paid", { invoice_id: paid.sid, payment_method: "manual" });
    await refusedNoWrite(t, () => cancel(dir.client, paid.sid), -32005, "InvalidState");
  });

  test("a shareholder is Forbidden, an outsider NotFound; a control character or a blank reason is refused", async () => {
    const inv = await sentInvoice();
    await refusedNoWrite(t, () => cancel(member.client, inv.sid), -32002, "Forbidden");
    await refusedNoWrite(t, () => cancel(outsider.client, inv.sid), -32003, "NotFound");
    await refusedNoWrite(t, () => cancel(dir.client, inv.sid, "bell \u0007"), -32602, null);
    await refusedNoWrite(t, () => cancel(dir.client, inv.sid, "   "), -32006, "InvalidInput");
  });
});
