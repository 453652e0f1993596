import { beforeAll, describe, expect, test } from "vitest";
import { sweepOverdueInvoices } from "../../src/services/invoice-service/overdue-sweep.ts";
import type { Client, TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { draft, insertCompany, person, refusedNoWrite, startInvoiceApp } from "./support.ts";

let t: TestApp;
let company: string;
let dir: { client: Client; resident: string };
let member: { client: Client; resident: string };
let outsider: { client: Client; resident: string };

beforeAll(async () => {
  t = await startInvoiceApp();
  const owner = await t.register("paid-owner@example.org");
  company = await insertCompany(t, owner.userId);
  dir = await person(t, company, "director");
  member = await person(t, company, "shareholder");
  outsider = await person(t, null, null);
});

const sentInvoice = async (due = "2026-12-23T00:00:00.000Z") => {
  const inv = await draft(dir.client, company, { due_date: due });
  return dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
};

/** The sweep as an instance runs it, at a given instant (sessions live on the test clock, which stays put). */
const sweep = (at: string) => sweepOverdueInvoices(t.app.runtime, new Date(at));

describe("invoiceservice.mark_paid", () => {
  test("sets method, reference and paid_at and moves sent -> paid", async () => {
    const inv = await sentInvoice();
    const paid = await dir.client.callOk("invoiceservice.mark_paid", {
      invoice_id: inv.sid,
      payment_method: " bank_transfer ",
      payment_reference: "TT-991",
    });
    expect(paid).toMatchObject({
      status: "paid",
      payment_method: "bank_transfer",
      payment_reference: "TT-991",
      paid_at: t.clock.now().toISOString(),
    });
    expect(await dir.client.callOk("invoiceservice.get", { invoice_id: inv.sid })).toEqual(paid);
  });

  test("only once: a second mark_paid is InvalidState and changes nothing", async () => {
    const inv = await sentInvoice();
    await dir.client.callOk("invoiceservice.mark_paid", { invoice_id: inv.sid, payment_method: "manual" });
    t.clock.advance(60);
    await refusedNoWrite(
      t,
      () =>
        dir.client.call("invoiceservice.mark_paid", {
          invoice_id: inv.sid,
          payment_method: "card",
          payment_reference: "other",
        }),
      -32005,
      "InvalidState",
    );
    const [row] = await sql(t, `select payment_method, payment_reference from "zone_invoice" where sid = ?`, [inv.sid]);
    expect(row).toEqual({ payment_method: "manual", payment_reference: null });
  });

  test("a draft is InvalidState; a blank method InvalidInput; a member Forbidden; an outsider NotFound", async () => {
    const d = await draft(dir.client, company);
    const mark =
      (c: Client, invoice_id: string, payment_method = "manual") =>
      () =>
        c.call("invoiceservice.mark_paid", { invoice_id, payment_method });
    await refusedNoWrite(t, mark(dir.client, d.sid), -32005, "InvalidState");
    const s = await sentInvoice();
    await refusedNoWrite(t, mark(dir.client, s.sid, "   "), -32006, "InvalidInput");
    await refusedNoWrite(t, mark(dir.client, s.sid, ""), -32602, null);
    await refusedNoWrite(t, mark(member.client, s.sid), -32002, "Forbidden");
    await refusedNoWrite(t, mark(outsider.client, s.sid), -32003, "NotFound");
  });
});

describe("overdue sweep", () => {
  test("sent invoices past due_date become overdue; drafts, paid and not-yet-due ones stay; a rerun does nothing", async () => {
    const due = "2026-11-30T00:00:00.000Z";
    const late = await sentInvoice(due);
    const paid = await sentInvoice(due);
    await dir.client.callOk("invoiceservice.mark_paid", { invoice_id: paid.sid, payment_method: "manual" });
    const stillDraft = await draft(dir.client, company, { due_date: due });
    const later = await sentInvoice("2026-12-30T00:00:00.000Z");

    expect(await sweep("2026-11-30T00:00:00.000Z")).toEqual([]); // exactly at due_date: not yet past it
    expect(await sweep("2026-11-30T00:00:00.001Z")).toEqual([late.sid]);
    expect(await sweep("2026-12-01T00:00:00.000Z")).toEqual([]);
    const status = async (sid: string) => (await dir.client.callOk("invoiceservice.get", { invoice_id: sid })).status;
    expect(await status(late.sid)).toBe("overdue");
    expect(await status(paid.sid)).toBe("paid");
    expect(await status(stillDraft.sid)).toBe("draft");
    expect(await status(later.sid)).toBe("sent");

    // An overdue invoice can still be marked paid, once.
    const p = await dir.client.callOk("invoiceservice.mark_paid", { invoice_id: late.sid, payment_method: "crypto" });
    expect(p.status).toBe("paid");
  });
});
