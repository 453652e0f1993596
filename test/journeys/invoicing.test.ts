import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import { enableReceiving, formCompany, journeyCast, postMobileMoneySucceeded, signInAgain } from "./support.ts";

// Seed 001, invoicing: a company's director invoices a resident, sends it (inbox message and email to the
// recipient), the recipient pays it by mobile money and the provider's webhook marks it paid; a person-to-person
// invoice of that resident is cancelled and its payment refused. Each party reads the invoice at each step; a
// stranger never sees it. Public API only (see support.ts).

expectReached({
  InvoiceStatus: ["draft", "sent", "paid", "cancelled", "overdue"],
  PaymentStatus: ["pending"],
});

const cast = journeyCast({
  alice: { first_name: "Alice", last_name: "Mwangi" },
  bob: { first_name: "Bob", last_name: "Okafor" },
  eve: { first_name: "Eve", last_name: "Stranger" },
});

const STEPS = [
  "form the issuing company",
  "the company enables payment receiving (provider-verified)",
  "the director drafts an invoice to a resident",
  "the director sends it: the recipient is told",
  "the recipient pays by mobile money: the provider's webhook marks it paid",
  "a paid invoice takes no second payment",
  "the resident invoices the director person to person",
  "the resident cancels it: its payment is refused",
  "an unpaid invoice past its due date: overdue by the hourly sweep",
  "the director records the late bank transfer: paid",
] as const;

test(`invoicing: issued by a company, paid by another resident (${STEPS.length} steps)`, async () => {
  const { zone, alice, bob, eve } = cast;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);

  step("form the issuing company");
  const { companyId } = await formCompany(zone, { resident: alice, units: 1000 }, []);

  step("the company enables payment receiving (provider-verified)");
  await enableReceiving(zone, alice.client, { entity_type: "company", entity_id: companyId });

  step("the director drafts an invoice to a resident");
  const draft = await alice.client.callOk("invoiceservice.create", {
    fzc_id: companyId,
    data: {
      description: "Website build, phase 1",
      currency: "USD",
      due_date: "2026-12-23T00:00:00.000Z",
      recipient_user_id: bob.userId,
      recipient_entity_type: "resident",
      recipient_entity_id: bob.residentId,
      line_items: [{ description: "Design and build", quantity: 10, unit_price: 120, amount: 1200, tax_rate: 0.18 }],
    },
  });
  expect(draft).toMatchObject({
    status: "draft",
    invoice_number: "INV-000001",
    amount: 1200,
    tax_amount: 216,
    total_amount: 1416,
    sender_entity_id: companyId,
    recipient_name: bob.name,
  });
  const strangerDraft = await eve.client.call("invoiceservice.get", { invoice_id: draft.sid });
  expect("error" in strangerDraft && strangerDraft.error.code).toBe(-32003);
  // Paying a draft is refused: it has not been sent.
  const early = await bob.client.call("paymentservice.initiate_invoice_payment", {
    invoice_id: draft.sid,
    provider: "mobilepay",
  });
  expect("error" in early && early.error.code).toBe(-32005);

  step("the director sends it: the recipient is told");
  const sent = await alice.client.callOk("invoiceservice.send_draft", {
    invoice_id: draft.sid,
    sender_message: "Thank you for your business.",
  });
  expect(sent).toMatchObject({ status: "sent", sent_at: zone.t.clock.now().toISOString() });
  const inbox = await bob.client.callOk("messageservice.list_user_messages", { category: "payment" });
  expect(inbox.items).toHaveLength(1);
  const outbox = await zone.admin.callOk("adminservice.list_outbox", { to_email: bob.email });
  expect(outbox.items.map((m) => m.subject)).toContain(`Invoice INV-000001 from ${sent.issuer_name}`);
  expect((await bob.client.callOk("invoiceservice.get", { invoice_id: draft.sid })).status).toBe("sent");
  const strangerSent = await eve.client.call("invoiceservice.get", { invoice_id: draft.sid });
  expect("error" in strangerSent && strangerSent.error.code).toBe(-32003);
  // The recipient sees it but is not the issuer: he may not mark it paid himself. (The dispatcher's company
  // target check answers a caller without a role in the issuing company NotFound, although decisions.md
  // "Invoices" still says Forbidden for a caller who can see the invoice.)
  const selfMarked = await bob.client.call("invoiceservice.mark_paid", {
    invoice_id: draft.sid,
    payment_method: "bank_transfer",
    payment_reference: "mine",
  });
  expect("error" in selfMarked && selfMarked.error.code).toBe(-32003);
  expect((await bob.client.callOk("invoiceservice.get", { invoice_id: draft.sid })).status).toBe("sent");

  step("the recipient pays by mobile money: the provider's webhook marks it paid");
  const order = await bob.client.callOk("paymentservice.initiate_invoice_payment", {
    invoice_id: draft.sid,
    provider: "mobilepay",
  });
  expect(order).toMatchObject({ status: "pending", amount: 1416, currency: "USD", payment_purpose: "invoice_payment" });
  expect((await alice.client.callOk("invoiceservice.get", { invoice_id: draft.sid })).status).toBe("sent");
  await postMobileMoneySucceeded(zone, order.mobilepay_order_id, 1416);
  for (const party of [alice, bob]) {
    const seen = await party.client.callOk("invoiceservice.get", { invoice_id: draft.sid });
    expect(seen).toMatchObject({
      status: "paid",
      payment_method: "mobilepay",
      payment_reference: order.payment_id,
      paid_at: zone.t.clock.now().toISOString(),
    });
  }
  // Paid by the provider: neither wallet moved.
  expect((await bob.client.callOk("creditservice.get_balance")).balance).toBe(0);
  const listed = await alice.client.callOk("invoiceservice.list", { fzc_id: companyId });
  expect(listed.items.map((i) => [i.invoice_number, i.status])).toEqual([["INV-000001", "paid"]]);

  step("a paid invoice takes no second payment");
  const twice = await bob.client.call("paymentservice.initiate_invoice_payment", {
    invoice_id: draft.sid,
    provider: "mobilepay",
  });
  expect("error" in twice && twice.error.code).toBe(-32005);

  step("the resident invoices the director person to person");
  await enableReceiving(zone, bob.client, { entity_type: "resident", entity_id: bob.residentId });
  const personal = await bob.client.callOk("invoiceservice.send_invoice", {
    fzc_id: bob.residentId,
    data: {
      description: "Translation of the articles",
      currency: "USD",
      due_date: "2026-12-23T00:00:00.000Z",
      recipient_user_id: alice.userId,
      line_items: [],
      amount: 80,
    },
  });
  expect(personal).toMatchObject({ status: "sent", fzc_id: "", sender_entity_id: bob.residentId, total_amount: 80 });
  expect((await alice.client.callOk("invoiceservice.get", { invoice_id: personal.sid })).status).toBe("sent");

  step("the resident cancels it: its payment is refused");
  const byRecipient = await alice.client.call("invoiceservice.cancel_invoice", {
    invoice_id: personal.sid,
    reason: "Not mine to cancel.",
  });
  // The recipient is not the issuer (answered NotFound, as for mark_paid above).
  expect("error" in byRecipient && byRecipient.error.code).toBe(-32003);
  const cancelled = await bob.client.callOk("invoiceservice.cancel_invoice", {
    invoice_id: personal.sid,
    reason: "Sent twice by mistake.",
  });
  expect(cancelled).toMatchObject({ status: "cancelled", cancellation_reason: "Sent twice by mistake." });
  const refused = await alice.client.call("paymentservice.initiate_invoice_payment", {
    invoice_id: personal.sid,
    provider: "mobilepay",
  });
  expect("error" in refused && refused.error.code).toBe(-32005);
  expect(await alice.client.callOk("invoiceservice.get", { invoice_id: personal.sid })).toMatchObject({
    status: "cancelled",
    paid_at: null,
  });

  step("an unpaid invoice past its due date: overdue by the hourly sweep");
  const due = "2026-11-30T00:00:00.000Z";
  const late = await alice.client.callOk("invoiceservice.create", {
    fzc_id: companyId,
    data: {
      description: "Hosting, November",
      currency: "USD",
      due_date: due,
      recipient_user_id: bob.userId,
      recipient_entity_type: "resident",
      recipient_entity_id: bob.residentId,
      line_items: [{ description: "Hosting", quantity: 1, unit_price: 50, amount: 50, tax_rate: 0 }],
    },
  });
  await alice.client.callOk("invoiceservice.send_draft", { invoice_id: late.sid });
  // Due at the instant itself it is not late yet; a second after, the sweep marks it.
  zone.t.clock.set(due);
  await zone.t.app.runJobs();
  await signInAgain(zone, alice, bob);
  expect((await bob.client.callOk("invoiceservice.get", { invoice_id: late.sid })).status).toBe("sent");
  zone.t.clock.set("2026-11-30T00:00:01.000Z");
  await zone.t.app.runJobs();
  for (const party of [alice, bob]) {
    expect((await party.client.callOk("invoiceservice.get", { invoice_id: late.sid })).status).toBe("overdue");
  }
  // The paid invoice of the first steps is not touched by the sweep.
  expect((await alice.client.callOk("invoiceservice.get", { invoice_id: draft.sid })).status).toBe("paid");

  step("the director records the late bank transfer: paid");
  const paidLate = await alice.client.callOk("invoiceservice.mark_paid", {
    invoice_id: late.sid,
    payment_method: "bank_transfer",
    payment_reference: "BT-2026-1130",
  });
  expect(paidLate).toMatchObject({ status: "paid", payment_reference: "BT-2026-1130" });
  expect((await bob.client.callOk("invoiceservice.get", { invoice_id: late.sid })).status).toBe("paid");

  expect(done).toEqual([...STEPS]);
});
