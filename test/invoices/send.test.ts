import { beforeAll, describe, expect, test } from "vitest";
import { MAX_SENDER_MESSAGE } from "../../src/domain/invoices.ts";
import type { Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import {
  DATA,
  draft,
  insertCompany,
  outboxTo,
  pdfText,
  person,
  refusedNoWrite,
  startInvoiceApp,
  writes,
} from "./support.ts";

let t: TestApp;
let company: string;
let owner: Client;
let dir: { client: Client; resident: string };
let dir2: { client: Client; resident: string };
let member: { client: Client; resident: string };
let outsider: { client: Client; resident: string };

const NOTE = `Thanks! <script>alert("x")</script> & 'co'`;
const INSTRUCTIONS = {
  method: "bank_transfer",
  bank_name: "Zanzibar Bank",
  account_name: "Invoice Test FZC",
  account_number: "0012345678",
  iban: null,
  swift: "ZANZTZTZ",
  reference: "INV-REF-7",
  notes: null,
  security_question: "Favourite colour?",
  security_answer: "ultramarine",
};

beforeAll(async () => {
  t = await startInvoiceApp();
  owner = await t.register("send-owner@example.org");
  company = await insertCompany(t, owner.userId);
  dir = await person(t, company, "director");
  dir2 = await person(t, company, "director");
  member = await person(t, company, "shareholder");
  outsider = await person(t, null, null);
});

describe("invoiceservice.send_draft", () => {
  test("emails the invoice with the PDF attached, the note escaped in the body only; draft -> sent; inbox posted", async () => {
    const recipient = await person(t, null, null);
    const inv = await draft(dir.client, company, {
      recipient_email: null,
      recipient_user_id: recipient.client.userId,
      payment_instructions: INSTRUCTIONS,
    });
    const sent = await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid, sender_message: NOTE });
    expect(sent).toMatchObject({ status: "sent", sent_at: t.clock.now().toISOString(), sender_message: NOTE });
    const [mail] = await outboxTo(t, recipient.client.email);
    expect(mail).toMatchObject({
      template: "invoice",
      status: "sent",
      reply_to: dir.client.email,
      attachment_filename: `invoice-${inv.invoice_number}.pdf`,
      attachment_content_type: "application/pdf",
    });
    expect(mail.subject).toBe(`Invoice ${inv.invoice_number} from ${sent.issuer_name}`);
    expect(mail.subject).not.toContain("Thanks");
    expect(mail.body_text).toContain(NOTE);
    expect(mail.body_html).toContain("Thanks! &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;");
    expect(mail.body_html).not.toContain("<script>");

    const text = await pdfText(Buffer.from(mail.attachment_base64, "base64"));
    for (const expected of [
      sent.issuer_name as string,
      "Registration number: REG-I",
      "Logo: https://logos.example/",
      `Invoice ${inv.invoice_number}`,
      "Design: 3 x 19.99 = 59.97 USD",
      "Hosting: 1.5 x 0.05 = 0.08 USD",
      "Subtotal: 60.05 USD",
      "Tax: 10.79 USD",
      "Total due: 70.84 USD",
      "Bank: Zanzibar Bank",
      "SWIFT: ZANZTZTZ",
      "Security question: Favourite colour?",
      "Security answer: [provided separately]",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain("ultramarine");
    expect(text).not.toContain("Thanks");

    const inbox = await sql(t, `select title, category from "user_message" where user_id = ?`, [
      recipient.client.userId,
    ]);
    expect(inbox).toEqual([{ title: `Invoice ${inv.invoice_number} from ${sent.issuer_name}`, category: "payment" }]);
  });

  test("a company recipient gets the email at the company's address and a CompanyMessage", async () => {
    const recipientCo = await insertCompany(t, owner.userId);
    const inv = await draft(dir.client, company, {
      recipient_email: null,
      recipient_entity_type: "company",
      recipient_entity_id: recipientCo,
    });
    await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    const [company_row] = await sql(t, `select email from "zone_company" where company_id = ?`, [recipientCo]);
    expect(await outboxTo(t, company_row.email)).toHaveLength(1);
    expect(await count(t, "company_message", "company_id = ?", [recipientCo])).toBe(1);
  });

  test("a resident recipient gets the email at the resident's address and a message in its owner's inbox", async () => {
    const recipient = await person(t, null, null);
    const inv = await draft(dir.client, company, {
      recipient_email: null,
      recipient_entity_type: "resident",
      recipient_entity_id: recipient.resident,
    });
    await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    const [res] = await sql(t, `select email from "digital_resident" where resident_id = ?`, [recipient.resident]);
    expect((await outboxTo(t, res.email)).map((m) => m.template)).toEqual(["invoice"]);
    expect(await count(t, "user_message", "user_id = ?", [recipient.client.userId])).toBe(1);
  });

  test("a failed send leaves the draft and keeps the given note; the retry carries the same note", async () => {
    const inv = await draft(dir.client, company, { recipient_email: "nobody@mail.invalid" });
    const err = errorOf(
      await dir.client.call("invoiceservice.send_draft", { invoice_id: inv.sid, sender_message: "see you soon" }),
    );
    expect(err).toMatchObject({ code: -32009, data: { type: "InvoiceError", variant: "ProviderUnavailable" } });
    const after = await dir.client.callOk("invoiceservice.get", { invoice_id: inv.sid });
    expect(after).toMatchObject({ status: "draft", sent_at: null, sender_message: "see you soon" });
    const failed = await outboxTo(t, "nobody@mail.invalid");
    expect(failed.map((r) => r.status)).toEqual(["failed"]);

    await dir.client.callOk("invoiceservice.update", {
      invoice_id: inv.sid,
      data: { recipient_email: "retry@customer.example" },
    });
    const sent = await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    expect(sent.status).toBe("sent");
    const [mail] = await outboxTo(t, "retry@customer.example");
    expect(mail.body_text).toContain("see you soon");
  });

  test("refusals: not a draft InvalidState, a member Forbidden, an outsider NotFound, no address InvalidInput", async () => {
    const inv = await draft(dir.client, company);
    const send =
      (c: Client, invoice_id = inv.sid) =>
      () =>
        c.call("invoiceservice.send_draft", { invoice_id });
    await refusedNoWrite(t, send(member.client), -32002, "Forbidden");
    await refusedNoWrite(t, send(outsider.client), -32003, "NotFound");
    const nowhere = await draft(dir.client, company, {
      recipient_email: null,
      recipient_entity_type: "company",
      recipient_entity_id: "FZ-2026-Y777777",
    });
    await refusedNoWrite(t, send(dir.client, nowhere.sid), -32006, "InvalidInput");
    await refusedNoWrite(
      t,
      () =>
        dir.client.call("invoiceservice.send_draft", {
          invoice_id: inv.sid,
          sender_message: "x".repeat(MAX_SENDER_MESSAGE + 1),
        }),
      -32602,
      null,
    );
    await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    await refusedNoWrite(t, send(dir.client), -32005, "InvalidState");
  });

  test("a note of exactly MAX_SENDER_MESSAGE characters is accepted", async () => {
    const inv = await draft(dir.client, company);
    const note = "n".repeat(MAX_SENDER_MESSAGE);
    const sent = await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid, sender_message: note });
    expect(sent.sender_message).toBe(note);
  });
});

describe("invoiceservice.send_invoice", () => {
  test("creates and sends in one step; the note overrides data.sender_message", async () => {
    const inv = await dir.client.callOk("invoiceservice.send_invoice", {
      fzc_id: company,
      data: { ...DATA, recipient_email: "one-step@customer.example", sender_message: "data note" },
      sender_message: "param note",
    });
    expect(inv).toMatchObject({ status: "sent", sender_message: "param note" });
    const [mail] = await outboxTo(t, "one-step@customer.example");
    expect(mail.body_text).toContain("param note");
    expect(mail.body_text).not.toContain("data note");
  });

  test("a failed send keeps the invoice as a draft named in the error's data; send_draft retries it", async () => {
    const before = await count(t, "zone_invoice");
    const err = errorOf(
      await dir.client.call("invoiceservice.send_invoice", {
        fzc_id: company,
        data: { ...DATA, recipient_email: "gone@mail.invalid" },
        sender_message: "kept note",
      }),
    );
    expect(err).toMatchObject({ code: -32009, data: { type: "InvoiceError", variant: "ProviderUnavailable" } });
    const invoiceId = err.data.invoice_id as string;
    expect(await count(t, "zone_invoice")).toBe(before + 1);
    const kept = await dir.client.callOk("invoiceservice.get", { invoice_id: invoiceId });
    expect(kept).toMatchObject({ status: "draft", sender_message: "kept note", amount: 60.05, sent_at: null });
    expect(kept.invoice_number).toMatch(/^INV-\d{6}$/);
    expect(await count(t, "document_audience", "document_ref = ?", [invoiceId])).toBe(1);
    await dir.client.callOk("invoiceservice.update", {
      invoice_id: invoiceId,
      data: { recipient_email: "back@customer.example" },
    });
    expect((await dir.client.callOk("invoiceservice.send_draft", { invoice_id: invoiceId })).status).toBe("sent");
    expect((await outboxTo(t, "back@customer.example"))[0].body_text).toContain("kept note");
  });

  test("input refusals create nothing; a shareholder is Forbidden", async () => {
    const send = (c: Client, data: Record<string, unknown>) => () =>
      c.call("invoiceservice.send_invoice", { fzc_id: company, data: { ...DATA, ...data } } as never);
    await refusedNoWrite(t, send(dir.client, { amount: 1 }), -32006, "InvalidAmount");
    await refusedNoWrite(t, send(dir.client, { recipient_email: null }), -32006, "InvalidInput");
    await refusedNoWrite(
      t,
      send(dir.client, { recipient_email: null, recipient_entity_type: "company", recipient_entity_id: "FZ-2026-Y7" }),
      -32006,
      "InvalidInput",
    );
    await refusedNoWrite(t, send(member.client, {}), -32002, "Forbidden");
  });
});

describe("invoiceservice.preview_invoice_email", () => {
  test("renders exactly what send then sends, and writes nothing", async () => {
    const inv = await draft(dir.client, company, { recipient_email: "preview@customer.example", sender_message: NOTE });
    const before = await writes(t);
    const preview = await dir.client.callOk("invoiceservice.preview_invoice_email", { invoice_id: inv.sid });
    expect(await writes(t)).toEqual(before);
    await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    const [mail] = await outboxTo(t, "preview@customer.example");
    expect(preview).toEqual({
      invoice_id: inv.sid,
      to: mail.to_email,
      reply_to: mail.reply_to,
      subject: mail.subject,
      text_body: mail.body_text,
      html_body: mail.body_html,
      sender_message: NOTE,
      attachment_filename: mail.attachment_filename,
    });
  });

  test("only the invoice's sender: another director NotOwner, naming another user -32002, outsider NotFound", async () => {
    const inv = await draft(dir.client, company);
    await refusedNoWrite(
      t,
      () => dir2.client.call("invoiceservice.preview_invoice_email", { invoice_id: inv.sid }),
      -32002,
      "NotOwner",
    );
    await refusedNoWrite(
      t,
      () =>
        dir2.client.call("invoiceservice.preview_invoice_email", {
          invoice_id: inv.sid,
          sender_user_id: dir.client.userId,
        }),
      -32002,
      "NotOwner",
    );
    await refusedNoWrite(
      t,
      () => outsider.client.call("invoiceservice.preview_invoice_email", { invoice_id: inv.sid }),
      -32003,
      "NotFound",
    );
  });

  test("an invoice with no resolvable address is InvalidState", async () => {
    const inv = await draft(dir.client, company, {
      recipient_email: null,
      recipient_entity_type: "company",
      recipient_entity_id: "FZ-2026-Y777777",
    });
    await refusedNoWrite(
      t,
      () => dir.client.call("invoiceservice.preview_invoice_email", { invoice_id: inv.sid }),
      -32005,
      "InvalidState",
    );
  });
});
