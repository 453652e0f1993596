import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { count, oneAudience, sql } from "../support/helpers.ts";
import {
  DATA,
  draft,
  insertCompany,
  insertResident,
  person,
  refusedNoWrite,
  startInvoiceApp,
  writes,
} from "./support.ts";

let t: TestApp;
let company: string;
let other: string;
let owner: Client;
let dir: { client: Client; resident: string };
let member: { client: Client; resident: string };
let outsider: { client: Client; resident: string };
let admin: Client;

beforeAll(async () => {
  t = await startInvoiceApp();
  owner = await t.register("inv-owner@example.org");
  company = await insertCompany(t, owner.userId);
  const otherOwner = await t.register("inv-other-owner@example.org");
  other = await insertCompany(t, otherOwner.userId);
  dir = await person(t, company, "director");
  member = await person(t, company, "shareholder");
  outsider = await person(t, other, "director");
  admin = await t.admin();
});

describe("invoiceservice.create", () => {
  test("a director creates a draft: server totals in exact cents, a number, derived names, an audience row", async () => {
    const inv = await draft(dir.client, company);
    expect(inv).toMatchObject({
      fzc_id: company,
      status: "draft",
      amount: 60.05,
      tax_amount: 10.79,
      total_amount: 70.84,
      currency: "USD",
      sender_user_id: dir.client.userId,
      sender_entity_type: "company",
      sender_entity_id: company,
      issuer_name: expect.stringMatching(/^Invoice Test \d+ FZC$/),
      issuer_registration_number: expect.stringMatching(/^REG-I\d+$/),
      recipient_name: "client@customer.example",
      issue_date: t.clock.now().toISOString(),
      sent_at: null,
      paid_at: null,
      payment_method: null,
    });
    expect(inv.invoice_number).toMatch(/^INV-\d{6}$/);
    expect(inv.line_items.map((l) => l.amount)).toEqual([59.97, 0.08]);
    const [row] = await sql(t, `select amount::text as a, tax_amount::text as x from "zone_invoice" where sid = ?`, [
      inv.sid,
    ]);
    expect(row).toEqual({ a: "60.05", x: "10.79" });
    const aud = await oneAudience(t, inv.sid);
    expect(aud).toMatchObject({
      document_type: "invoice",
      company_id: company,
      audience_computation: "invoice_issuer_members",
      created_by: dir.client.userId,
    });
    // Relevant at the instant it was made (docs/decisions.md "Visibility of company records (issue 30)").
    expect(new Date(aud.document_relevant_to).getTime()).toBe(new Date(aud.document_relevant_from).getTime() + 1);
    // issuer_name, issuer_registration_number and recipient_name are not columns: never stored.
    const cols = await sql(t, `select column_name from information_schema.columns where table_name = 'zone_invoice'`);
    const names = cols.map((c) => c.column_name);
    for (const derived of ["issuer_name", "issuer_registration_number", "recipient_name"]) {
      expect(names).not.toContain(derived);
    }
  });

  test("numbers run per company without gaps; a refusal gives no number away; another company has its own", async () => {
    const c = await insertCompany(t, owner.userId);
    const a = await draft(owner, c);
    await refusedNoWrite(
      t,
      () => owner.call("invoiceservice.create", { fzc_id: c, data: { ...DATA, currency: "XYZ" } }),
      -32006,
      "InvalidInput",
    );
    const b = await draft(owner, c);
    const d = await draft(outsider.client, other);
    expect([a.invoice_number, b.invoice_number]).toEqual(["INV-000001", "INV-000002"]);
    expect(d.invoice_number).toMatch(/^INV-\d{6}$/);
  });

  test("a given invoice number is kept; the same number twice for one issuer is AlreadyExists; the counter skips it", async () => {
    const c = await insertCompany(t, owner.userId);
    const mine = await draft(owner, c, { invoice_number: "INV-000001" });
    expect(mine.invoice_number).toBe("INV-000001");
    await refusedNoWrite(
      t,
      () => owner.call("invoiceservice.create", { fzc_id: c, data: { ...DATA, invoice_number: " INV-000001 " } }),
      -32005,
      "AlreadyExists",
    );
    expect((await draft(owner, c)).invoice_number).toBe("INV-000002");
    // Another issuer may use the same number.
    const c2 = await insertCompany(t, owner.userId);
    expect((await draft(owner, c2, { invoice_number: "INV-000001" })).invoice_number).toBe("INV-000001");
  });

  test("without line items the given amount stands, tax defaults to 0; with a given tax it is kept", async () => {
    const a = await draft(dir.client, company, { line_items: [], amount: 100.1 });
    expect(a).toMatchObject({ amount: 100.1, tax_amount: 0, total_amount: 100.1 });
    const b = await draft(dir.client, company, { line_items: [], amount: 0.1, tax_amount: 0.2 });
    expect(b).toMatchObject({ amount: 0.1, tax_amount: 0.2, total_amount: 0.3 });
    const c = await draft(dir.client, company, { amount: 60.05, tax_amount: 10.79 });
    expect(c.total_amount).toBe(70.84);
  });

  test("client totals that disagree, zero, negative or 3-decimal figures are InvalidAmount, nothing written", async () => {
    const create = (data: Record<string, unknown>) => () =>
      dir.client.call("invoiceservice.create", { fzc_id: company, data: { ...DATA, ...data } } as never);
    const line = DATA.line_items[0];
    const bad: Record<string, unknown>[] = [
      { amount: 60.04 },
      { amount: 60.051 },
      { tax_amount: 10.8 },
      { line_items: [{ ...line, amount: 59.98 }] },
      { line_items: [{ ...line, quantity: 0, amount: 0 }] },
      { line_items: [{ ...line, quantity: -1, amount: -19.99 }] },
      { line_items: [{ ...line, unit_price: 19.999, amount: 59.997 }] },
      { line_items: [{ ...line, unit_price: 0, amount: 0 }] },
      { line_items: [], amount: null },
      { line_items: [], amount: 0 },
      { line_items: [], amount: 0.001 },
      { line_items: [], amount: 5, tax_amount: 0.005 },
    ];
    for (const data of bad) await refusedNoWrite(t, create(data), -32006, "InvalidAmount");
    await refusedNoWrite(t, create({ amount: -1 }), -32602, null);
  });

  test("edges: the smallest invoice is 0.01; a free line beside a paid one is fine", async () => {
    const a = await draft(dir.client, company, { line_items: [], amount: 0.01 });
    expect(a.total_amount).toBe(0.01);
    const b = await draft(dir.client, company, {
      line_items: [
        { description: "gift", quantity: 1, unit_price: 0, amount: 0, tax_rate: null },
        { description: "item", quantity: 1, unit_price: 0.01, amount: 0.01, tax_rate: 1 },
      ],
    });
    expect(b).toMatchObject({ amount: 0.01, tax_amount: 0.01, total_amount: 0.02 });
  });

  test("no recipient, half a recipient entity, unknown currency, due before issue, blank text: InvalidInput", async () => {
    const create = (data: Record<string, unknown>) => () =>
      dir.client.call("invoiceservice.create", { fzc_id: company, data: { ...DATA, ...data } } as never);
    for (const data of [
      { recipient_email: null },
      { recipient_entity_type: "company" },
      { recipient_entity_id: other },
      { currency: "XYZ" },
      { issue_date: "2026-12-24T00:00:00.000Z" },
      { description: "   " },
      { line_items: [{ ...DATA.line_items[0], tax_rate: 1.5 }] },
      { line_items: [{ ...DATA.line_items[0], description: " " }] },
      { payment_default_id: "no-such-default" },
    ]) {
      await refusedNoWrite(t, create(data), -32006, "InvalidInput");
    }
    await refusedNoWrite(t, create({ currency: "usd" }), -32602, null);
    await refusedNoWrite(t, create({ total_amount: 1 }), -32602, null);
  });

  test("fzc_id is required; an empty or unknown issuer is NotFound", async () => {
    await refusedNoWrite(t, () => dir.client.rpc("invoiceservice.create", { data: DATA }), -32602, null);
    for (const fzc_id of ["", "FZ-2026-RA999999", "nonsense"]) {
      await refusedNoWrite(
        t,
        () => dir.client.call("invoiceservice.create", { fzc_id, data: DATA }),
        -32003,
        "NotFound",
      );
    }
  });

  test("a shareholder is Forbidden, another company's director and an unknown company NotFound", async () => {
    const create =
      (c: Client, fzc_id = company) =>
      () =>
        c.call("invoiceservice.create", { fzc_id, data: DATA });
    await refusedNoWrite(t, create(member.client), -32002, "Forbidden");
    await refusedNoWrite(t, create(outsider.client), -32003, "NotFound");
    await refusedNoWrite(t, create(dir.client, "FZ-2026-Y999999"), -32003, "NotFound");
  });

  test("the owning user (founder) may issue; an administrator's session too, recorded as an AdminAction", async () => {
    expect((await draft(owner, company)).status).toBe("draft");
    const inv = await draft(admin, company);
    const rows = await sql(t, `select action, target_type from "admin_action" where target_id = ?`, [inv.sid]);
    expect(rows).toEqual([{ action: "create_invoice", target_type: "invoice" }]);
  });
});

describe("invoiceservice.list and get", () => {
  test("list: the company's invoices newest first, for any member; names resolved in the seed's order", async () => {
    const c = await insertCompany(t, owner.userId);
    const recipientCo = await insertCompany(t, owner.userId, { name: "Recipient Co FZC" });
    const named = await t.register("named@example.org");
    await sql(t, `update "user" set first_name = 'Grace', last_name = 'Hopper' where sid = ?`, [named.userId]);
    const nameless = await t.register("nameless@example.org");
    await sql(t, `update "user" set first_name = '', last_name = '' where sid = ?`, [nameless.userId]);
    const res = await insertResident(t, nameless.userId, { first_name: "Katherine", last_name: "Johnson" });
    const base = { ...DATA, recipient_email: null };
    const made = [
      await draft(owner, c, { ...base, recipient_entity_type: "company", recipient_entity_id: recipientCo }),
      await draft(owner, c, { ...base, recipient_entity_type: "resident", recipient_entity_id: res }),
      await draft(owner, c, { ...base, recipient_user_id: named.userId }),
      await draft(owner, c, { ...base, recipient_user_id: nameless.userId }),
      await draft(owner, c, { ...base, recipient_email: "x@y.example" }),
      await draft(owner, c, { ...base, recipient_entity_type: "company", recipient_entity_id: "FZ-2026-Y777777" }),
      // company wins over the user name and the email
      await draft(owner, c, {
        ...base,
        recipient_entity_type: "cooperative",
        recipient_entity_id: recipientCo,
        recipient_user_id: named.userId,
        recipient_email: "x@y.example",
      }),
    ];
    const memberOfC = await person(t, null, null);
    const { insertRole } = await import("./support.ts");
    await insertRole(t, c, memberOfC.resident, "shareholder");
    const listed = await memberOfC.client.callOk("invoiceservice.list", { fzc_id: c });
    expect(listed.items.map((i) => i.sid)).toEqual(made.map((m) => m.sid).reverse());
    expect(listed.items.map((i) => i.recipient_name).reverse()).toEqual([
      "Recipient Co FZC",
      "Katherine Johnson",
      "Grace Hopper",
      "nameless@example.org",
      "x@y.example",
      "-",
      "Recipient Co FZC",
    ]);
    for (const i of listed.items) expect(i.issuer_name).toMatch(/^Invoice Test \d+ FZC$/);
  });

  test("list: an outsider gets NotFound; a company's list never shows another's invoices", async () => {
    await refusedNoWrite(t, () => outsider.client.call("invoiceservice.list", { fzc_id: company }), -32003, null);
    const mine = await outsider.client.callOk("invoiceservice.list", { fzc_id: other });
    expect(mine.items.every((i) => i.fzc_id === other)).toBe(true);
  });

  test("get: issuer members, the sender and the recipient side see it; anyone else NotFound", async () => {
    const recipient = await person(t, null, null);
    const recipientCoOwner = await t.register("rc-owner@example.org");
    const recipientCo = await insertCompany(t, recipientCoOwner.userId);
    const byUser = await draft(dir.client, company, {
      recipient_email: null,
      recipient_user_id: recipient.client.userId,
    });
    const byResident = await draft(dir.client, company, {
      recipient_entity_type: "resident",
      recipient_entity_id: recipient.resident,
    });
    const byCompany = await draft(dir.client, company, {
      recipient_entity_type: "company",
      recipient_entity_id: recipientCo,
    });
    for (const c of [dir.client, member.client, admin]) {
      expect((await c.callOk("invoiceservice.get", { invoice_id: byUser.sid })).sid).toBe(byUser.sid);
    }
    // The issuing company's side reads through the visibility rule: ownership with no role row of its own is not an
    // audience tier (docs/decisions.md "Visibility of company records (issue 30)").
    expect((await owner.call("invoiceservice.get", { invoice_id: byUser.sid })) as unknown).toMatchObject({
      error: { code: -32003 },
    });
    expect((await recipient.client.callOk("invoiceservice.get", { invoice_id: byUser.sid })).recipient_name).toBe(
      recipient.client.email,
    );
    expect((await recipient.client.callOk("invoiceservice.get", { invoice_id: byResident.sid })).sid).toBe(
      byResident.sid,
    );
    expect((await recipientCoOwner.callOk("invoiceservice.get", { invoice_id: byCompany.sid })).sid).toBe(
      byCompany.sid,
    );
    for (const [c, sid] of [
      [outsider.client, byUser.sid],
      [recipient.client, byCompany.sid],
      [recipientCoOwner, byUser.sid],
      [dir.client, "no-such-invoice"],
    ] as const) {
      await refusedNoWrite(t, () => c.call("invoiceservice.get", { invoice_id: sid }), -32003, "NotFound");
    }
  });
});

describe("invoiceservice.update", () => {
  test("a director edits a draft: totals recomputed from new lines, absent fields kept, null clears", async () => {
    const inv = await draft(dir.client, company, { sender_message: "hi", reseller_invoice_id: "R-1" });
    const u = await dir.client.callOk("invoiceservice.update", {
      invoice_id: inv.sid,
      data: {
        line_items: [{ description: "Audit", quantity: 2, unit_price: 0.15, amount: 0.3, tax_rate: 0.1 }],
        sender_message: null,
      },
    });
    expect(u).toMatchObject({
      amount: 0.3,
      tax_amount: 0.03,
      total_amount: 0.33,
      description: DATA.description,
      reseller_invoice_id: "R-1",
      sender_message: null,
      invoice_number: inv.invoice_number,
    });
    expect(await dir.client.callOk("invoiceservice.get", { invoice_id: inv.sid })).toEqual(u);
    const v = await dir.client.callOk("invoiceservice.update", { invoice_id: inv.sid, data: { description: "New" } });
    expect(v).toMatchObject({ description: "New", amount: 0.3, tax_amount: 0.03 });
  });

  test("switching to a plain amount needs the amount; a disagreeing total is InvalidAmount; nothing written", async () => {
    const inv = await draft(dir.client, company);
    const upd = (data: Record<string, unknown>) => () =>
      dir.client.call("invoiceservice.update", { invoice_id: inv.sid, data } as never);
    await refusedNoWrite(t, upd({ line_items: [] }), -32006, "InvalidAmount");
    await refusedNoWrite(t, upd({ amount: 1 }), -32006, "InvalidAmount");
    await refusedNoWrite(t, upd({ due_date: "2020-01-01T00:00:00.000Z" }), -32006, "InvalidInput");
    await refusedNoWrite(t, upd({ recipient_email: null }), -32006, "InvalidInput");
    const taken = await draft(dir.client, company);
    await refusedNoWrite(t, upd({ invoice_number: taken.invoice_number }), -32005, "AlreadyExists");
    const u = await dir.client.callOk("invoiceservice.update", {
      invoice_id: inv.sid,
      data: { line_items: [], amount: 12.5 },
    });
    expect(u).toMatchObject({ amount: 12.5, tax_amount: 0, line_items: [] });
  });

  test("a member is Forbidden, an outsider NotFound, a sent invoice InvalidState", async () => {
    const inv = await draft(dir.client, company);
    const upd = (c: Client) => () =>
      c.call("invoiceservice.update", { invoice_id: inv.sid, data: { description: "x" } });
    await refusedNoWrite(t, upd(member.client), -32002, "Forbidden");
    await refusedNoWrite(t, upd(outsider.client), -32003, "NotFound");
    await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    await refusedNoWrite(t, upd(dir.client), -32005, "InvalidState");
  });
});

describe("invoiceservice.delete", () => {
  test("a director deletes a draft; its audience window closes; a second delete is NotFound", async () => {
    const inv = await draft(dir.client, company);
    expect(await dir.client.callOk("invoiceservice.delete", { fzc_id: company, invoice_id: inv.sid })).toEqual({
      sid: inv.sid,
      deleted: true,
    });
    expect(await count(t, "zone_invoice", "sid = ?", [inv.sid])).toBe(0);
    const aud = await sql(t, `select * from "document_audience" where document_ref = ? order by sid`, [inv.sid]);
    expect(aud).toHaveLength(2);
    expect(aud[1].supersedes).toBe(aud[0].sid);
    expect(aud[1].document_relevant_to).not.toBeNull();
    await refusedNoWrite(
      t,
      () => dir.client.call("invoiceservice.delete", { fzc_id: company, invoice_id: inv.sid }),
      -32003,
      "NotFound",
    );
  });

  test("another company's invoice is NotFound, a member Forbidden, a sent invoice InvalidState", async () => {
    const inv = await draft(dir.client, company);
    const theirs = await draft(outsider.client, other);
    await refusedNoWrite(
      t,
      () => dir.client.call("invoiceservice.delete", { fzc_id: company, invoice_id: theirs.sid }),
      -32003,
      "NotFound",
    );
    await refusedNoWrite(
      t,
      () => outsider.client.call("invoiceservice.delete", { fzc_id: other, invoice_id: inv.sid }),
      -32003,
      "NotFound",
    );
    await refusedNoWrite(
      t,
      () => member.client.call("invoiceservice.delete", { fzc_id: company, invoice_id: inv.sid }),
      -32002,
      "Forbidden",
    );
    await refusedNoWrite(
      t,
      // naming the director's own resident as issuer does not reach a company invoice
      () => dir.client.call("invoiceservice.delete", { fzc_id: dir.resident, invoice_id: inv.sid }),
      -32003,
      "NotFound",
    );
    await dir.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    await refusedNoWrite(
      t,
      () => dir.client.call("invoiceservice.delete", { fzc_id: company, invoice_id: inv.sid }),
      -32005,
      "InvalidState",
    );
    expect((await writes(t)).invoices.some((r) => r.sid === inv.sid)).toBe(true);
  });
});
