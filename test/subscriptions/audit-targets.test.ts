import { beforeEach, describe, expect, test } from "vitest";
import { aiDebit } from "../credit/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { errorOf } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { fund, insertCompany, insertResident, insertRole, renewalStart } from "./support.ts";

// userauditlogservice.list_for_target for the finance target types: `subscription` (renew_subscription names the
// paying user), `invoice` (its sender, and for a company's invoice the owner and current directors and founders)
// and `ai_call` (the billed user). Owners see the rows; anyone else NotFound, rows or not.

let t: TestApp;
let admin: Client;
let ada: Client;
let bob: Client;
let eve: Client;
beforeEach(async () => {
  ({ t, admin, ada } = await renewalStart());
  bob = await t.register("bob@example.org");
  eve = await t.register("eve@example.org");
});

const listFor = (client: Client, ref: string) =>
  client.call("userauditlogservice.list_for_target", { target_ref: ref, limit: 0 });
const actions = async (client: Client, ref: string) => {
  const r = await listFor(client, ref);
  if ("error" in r) return r.error.code;
  return r.result.items.map((i) => [i.action, i.target_type, i.allowed]);
};

async function insertInvoice(senderUserId: string, fzcId: string): Promise<string> {
  const row = await insertRow(t.app.runtime.orm, "ZoneInvoice", {
    fzc_id: fzcId,
    invoice_number: "INV-0001",
    amount: 100,
    currency: "USD",
    tax_amount: 0,
    description: "consulting",
    issue_date: new Date("2026-11-20T00:00:00.000Z"),
    due_date: new Date("2026-12-20T00:00:00.000Z"),
    sender_user_id: senderUserId,
    sender_entity_type: "company",
    sender_entity_id: fzcId,
    recipient_email: "client@example.org",
  });
  return String(row["sid"]);
}

async function logInvoiceRow(invoiceId: string) {
  await admin.callOk("userauditlogservice.log", {
    subject_id: bob.userId,
    action: "other",
    target_ref: invoiceId,
    target_type: "invoice",
    allowed: true,
    context: "{}",
  });
}

describe("audit targets of the finance issue", () => {
  test("subscription: the renewing user sees its allowed and refused renewals; others NotFound", async () => {
    await insertResident(t, ada.userId);
    await ada.call("paymentservice.initiate_renewal", { plan: "1_month" });
    await fund(admin, ada.userId, 10);
    await ada.callOk("paymentservice.initiate_renewal", { plan: "1_month" });
    expect(await actions(ada, ada.userId)).toEqual(
      expect.arrayContaining([
        ["renew_subscription", "subscription", true],
        ["renew_subscription", "subscription", false],
      ]),
    );
    expect(await actions(bob, ada.userId)).toBe(-32003);
  });

  test("invoice: sender, company owner and a current director see the rows; a shareholder and others NotFound", async () => {
    const companyId = await insertCompany(t, ada.userId);
    const invoiceId = await insertInvoice(bob.userId, companyId);
    const eveResident = await insertResident(t, eve.userId);
    await insertRole(t, companyId, eveResident, "director");
    const outsider = await t.register("olga@example.org");
    const holder = await insertResident(t, outsider.userId);
    await insertRole(t, companyId, holder, "shareholder");
    await logInvoiceRow(invoiceId);
    const row = [["other", "invoice", true]];
    expect(await actions(bob, invoiceId)).toEqual(row);
    expect(await actions(ada, invoiceId)).toEqual(row);
    expect(await actions(eve, invoiceId)).toEqual(row);
    expect(await actions(outsider, invoiceId)).toBe(-32003);
  });

  test("invoice: a director whose role ended no longer sees it", async () => {
    const companyId = await insertCompany(t, ada.userId);
    const invoiceId = await insertInvoice(ada.userId, companyId);
    const eveResident = await insertResident(t, eve.userId);
    await insertRow(t.app.runtime.orm, "CompanyRole", {
      company_id: companyId,
      subject_id: eveResident,
      role: "director",
      valid_from: new Date("2025-01-01T00:00:00.000Z"),
      valid_to: new Date("2025-06-01T00:00:00.000Z"),
      classification_scope: ["director"],
      created_by: eveResident,
    });
    await logInvoiceRow(invoiceId);
    expect(await actions(eve, invoiceId)).toBe(-32003);
  });

  test("invoice without audit rows yet: the sender gets an empty list, another user NotFound", async () => {
    const companyId = await insertCompany(t, ada.userId);
    const invoiceId = await insertInvoice(bob.userId, companyId);
    expect(await actions(bob, invoiceId)).toEqual([]);
    expect(errorOf(await listFor(eve, invoiceId)).code).toBe(-32003);
  });

  test("ai_call: the billed user sees the debit row by its external call id; another user NotFound", async () => {
    await fund(admin, ada.userId, 5);
    const debit = await aiDebit(ada, {
      user_id: ada.userId,
      amount: 0.25,
      external_call_id: "call-77",
      description: "assistant",
    });
    expect("result" in debit).toBe(true);
    expect(await actions(ada, "call-77")).toEqual([["ai_query_debit", "ai_call", true]]);
    expect(await actions(bob, "call-77")).toBe(-32003);
  });
});
