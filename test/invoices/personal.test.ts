import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { DATA, insertResident, outboxTo, person, refusedNoWrite, startInvoiceApp } from "./support.ts";

/** Person-to-person invoices: issued by a resident without a company (fzc_id names the issuing resident). */

let t: TestApp;
let alice: { client: Client; resident: string };
let bob: { client: Client; resident: string };
let carol: { client: Client; resident: string };

beforeAll(async () => {
  t = await startInvoiceApp();
  alice = await person(t, null, null);
  bob = await person(t, null, null);
  carol = await person(t, null, null);
});

const personal = (c: Client, fzc_id: string, data: Record<string, unknown> = {}) =>
  c.callOk("invoiceservice.create", { fzc_id, data: { ...DATA, ...data } });

describe("person-to-person invoices", () => {
  test("a resident's owner issues one: no company, numbered per resident, no audience row, no issuer_name", async () => {
    const a = await personal(alice.client, alice.resident, {
      recipient_email: null,
      recipient_entity_type: "resident",
      recipient_entity_id: bob.resident,
    });
    expect(a).toMatchObject({
      fzc_id: "",
      sender_entity_type: null,
      sender_entity_id: alice.resident,
      sender_user_id: alice.client.userId,
      issuer_name: null,
      issuer_registration_number: null,
      invoice_number: "INV-000001",
    });
    expect(a.recipient_name).toMatch(/^Ada Lovelace\d+$/);
    expect((await personal(alice.client, alice.resident)).invoice_number).toBe("INV-000002");
    expect((await personal(bob.client, bob.resident)).invoice_number).toBe("INV-000001");
    expect(await count(t, "document_audience", "document_ref = ?", [a.sid])).toBe(0);
  });

  test("naming a resident the caller does not own is NotOwner, nothing written", async () => {
    await refusedNoWrite(
      t,
      () => alice.client.call("invoiceservice.create", { fzc_id: bob.resident, data: DATA }),
      -32002,
      "NotOwner",
    );
    await refusedNoWrite(
      t,
      () => alice.client.call("invoiceservice.send_invoice", { fzc_id: bob.resident, data: DATA }),
      -32002,
      "NotOwner",
    );
  });

  test("list by the resident id for its owner only; the recipient reads it; a third party gets NotFound", async () => {
    const inv = await personal(alice.client, alice.resident, {
      recipient_email: null,
      recipient_user_id: bob.client.userId,
    });
    const listed = await alice.client.callOk("invoiceservice.list", { fzc_id: alice.resident });
    expect(listed.items[0]?.sid).toBe(inv.sid);
    expect(listed.items.every((i) => i.sender_entity_id === alice.resident)).toBe(true);
    await refusedNoWrite(
      t,
      () => bob.client.call("invoiceservice.list", { fzc_id: alice.resident }),
      -32003,
      "NotFound",
    );
    expect((await bob.client.callOk("invoiceservice.get", { invoice_id: inv.sid })).sid).toBe(inv.sid);
    await refusedNoWrite(t, () => carol.client.call("invoiceservice.get", { invoice_id: inv.sid }), -32003, "NotFound");
  });

  // The writes are the dispatcher's issuer rule (x-target ZoneInvoice, foreignResident NotFound): anyone but the
  // issuing resident's owner gets NotFound, the recipient who may read the invoice too (it was Forbidden before).
  test("the issuer sends, marks paid and deletes drafts; the recipient and a stranger get NotFound", async () => {
    const inv = await personal(alice.client, alice.resident, {
      recipient_email: null,
      recipient_user_id: bob.client.userId,
    });
    const send = (c: Client) => () => c.call("invoiceservice.send_draft", { invoice_id: inv.sid });
    await refusedNoWrite(t, send(bob.client), -32003, "NotFound");
    await refusedNoWrite(t, send(carol.client), -32003, "NotFound");
    const sent = await alice.client.callOk("invoiceservice.send_draft", { invoice_id: inv.sid });
    expect(sent.status).toBe("sent");
    const [mail] = await outboxTo(t, bob.client.email);
    expect(mail.subject).toMatch(/^Invoice INV-\d{6} from Ada Lovelace\d+$/);
    await refusedNoWrite(
      t,
      () => bob.client.call("invoiceservice.mark_paid", { invoice_id: inv.sid, payment_method: "manual" }),
      -32003,
      "NotFound",
    );
    expect(
      (await alice.client.callOk("invoiceservice.mark_paid", { invoice_id: inv.sid, payment_method: "cash" })).status,
    ).toBe("paid");

    const d = await personal(alice.client, alice.resident);
    await refusedNoWrite(
      t,
      () => bob.client.call("invoiceservice.delete", { fzc_id: alice.resident, invoice_id: d.sid }),
      -32003,
      "NotFound",
    );
    expect(await alice.client.callOk("invoiceservice.delete", { fzc_id: alice.resident, invoice_id: d.sid })).toEqual({
      sid: d.sid,
      deleted: true,
    });
  });

  test("a resident recipient is named by its real name, read from its own row", async () => {
    const dave = await t.register("p2p-dave@example.org");
    const other = await insertResident(t, dave.userId, { first_name: "Zed", last_name: "Zulu" });
    const inv = await personal(carol.client, carol.resident, {
      recipient_email: null,
      recipient_entity_type: "resident",
      recipient_entity_id: other,
    });
    expect(inv.recipient_name).toBe("Zed Zulu");
    const [row] = await sql(t, `select count(*)::int as n from "zone_invoice" where sender_entity_id = ?`, [
      carol.resident,
    ]);
    expect(row.n).toBe(1);
  });
});
