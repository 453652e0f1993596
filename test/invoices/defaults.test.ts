import { beforeAll, describe, expect, test } from "vitest";
import { isSealed, openSecret } from "../../src/auth/secret-box.ts";
import type { Client, TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { DATA, draft, insertCompany, person, refusedNoWrite, startInvoiceApp } from "./support.ts";

let t: TestApp;
let company: string;
let coop: string;
let dir: { client: Client; resident: string };
let member: { client: Client; resident: string };
let outsider: { client: Client; resident: string };

const PI = {
  method: "mobile_money",
  bank_name: null,
  account_name: "Invoice Test FZC",
  account_number: "+255700000001",
  iban: null,
  swift: null,
  reference: null,
  notes: "M-Pesa",
  security_question: "Pet's name?",
  security_answer: "Mr. Whiskers",
};

beforeAll(async () => {
  t = await startInvoiceApp();
  const owner = await t.register("def-owner@example.org");
  company = await insertCompany(t, owner.userId);
  coop = await insertCompany(t, owner.userId, { company_type: "coop_standard_fzc" });
  dir = await person(t, company, "director");
  const { insertRole } = await import("./support.ts");
  await insertRole(t, coop, dir.resident, "director");
  member = await person(t, company, "shareholder");
  outsider = await person(t, null, null);
});

const storedAnswer = async (table: string, sid: string): Promise<string> => {
  const [row] = await sql(t, `select payment_instructions from "${table}" where sid = ?`, [sid]);
  const pi =
    typeof row.payment_instructions === "string" ? JSON.parse(row.payment_instructions) : row.payment_instructions;
  return pi.security_answer;
};

describe("security answer on invoices", () => {
  test("sealed on save, redacted on every read (create, get, list, update)", async () => {
    const inv = await draft(dir.client, company, { payment_instructions: PI });
    expect(inv.payment_instructions).toEqual({ ...PI, security_answer: null });
    const stored = await storedAnswer("zone_invoice", inv.sid);
    expect(isSealed(stored)).toBe(true);
    expect(stored).not.toContain("Whiskers");
    expect(openSecret(t.config.encryptionKey, stored)).toBe("Mr. Whiskers");
    expect((await dir.client.callOk("invoiceservice.get", { invoice_id: inv.sid })).payment_instructions).toEqual({
      ...PI,
      security_answer: null,
    });
    const listed = await dir.client.callOk("invoiceservice.list", { fzc_id: company });
    expect(listed.items.find((i) => i.sid === inv.sid)?.payment_instructions?.security_answer).toBeNull();
    const u = await dir.client.callOk("invoiceservice.update", {
      invoice_id: inv.sid,
      data: { payment_instructions: { ...PI, security_answer: "enc:00:11" } },
    });
    expect(u.payment_instructions?.security_answer).toBeNull();
    // Text that merely looks sealed is sealed like any other answer.
    expect(openSecret(t.config.encryptionKey, await storedAnswer("zone_invoice", inv.sid))).toBe("enc:00:11");
  });
});

describe("security answer through generic CRUD (issue 29 item 3)", () => {
  test("zoneinvoice.get and zoneinvoice.find answer it as null, never the sealed text", async () => {
    const inv = await draft(dir.client, company, { payment_instructions: PI });
    const got = await dir.client.rpc("zoneinvoice.get", { sid: inv.sid });
    expect(got.error).toBeUndefined();
    expect(got.result.payment_instructions).toEqual({ ...PI, security_answer: null });
    const found = await dir.client.rpc("zoneinvoice.find", { query: JSON.stringify({ fzc_id: company }) });
    expect(found.error).toBeUndefined();
    const mine = found.result.items.filter((i: any) => i.sid === inv.sid);
    expect(mine.map((i: any) => i.payment_instructions.security_answer)).toEqual([null]);
    expect(JSON.stringify([got, found])).not.toContain("enc:");
  });
});

describe("payment defaults", () => {
  test("set seals the answer and never reads it back; a second set for the same combination replaces it", async () => {
    const a = await dir.client.callOk("invoiceservice.set_payment_default", {
      payment_instructions: PI,
      sender_entity_type: "company",
      sender_entity_id: company,
      currency: "USD",
      label: "M-Pesa",
    });
    expect(a).toMatchObject({
      owner_user_id: dir.client.userId,
      sender_entity_type: "company",
      sender_entity_id: company,
      currency: "USD",
      label: "M-Pesa",
      payment_instructions: { ...PI, security_answer: null },
    });
    expect(openSecret(t.config.encryptionKey, await storedAnswer("invoice_payment_default", a.sid))).toBe(
      "Mr. Whiskers",
    );
    const b = await dir.client.callOk("invoiceservice.set_payment_default", {
      payment_instructions: { ...PI, notes: "new" },
      sender_entity_type: "company",
      sender_entity_id: company,
      currency: "USD",
    });
    expect(b.sid).toBe(a.sid);
    expect(b).toMatchObject({ label: null, payment_instructions: { notes: "new", security_answer: null } });
    const personal = await dir.client.callOk("invoiceservice.set_payment_default", { payment_instructions: PI });
    expect(personal).toMatchObject({ sender_entity_type: null, sender_entity_id: null, currency: null });
    const all = await dir.client.callOk("invoiceservice.get_payment_defaults", {});
    expect(all.items.map((i) => i.sid)).toEqual([personal.sid, a.sid]);
    for (const i of all.items) expect(i.payment_instructions.security_answer).toBeNull();
    const eur = await dir.client.callOk("invoiceservice.get_payment_defaults", { currency: "EUR" });
    expect(eur.items.map((i) => i.sid)).toEqual([personal.sid]);
    const forCompany = await dir.client.callOk("invoiceservice.get_payment_defaults", { sender_entity_id: company });
    expect(forCompany.items.map((i) => i.sid)).toEqual([a.sid]);
  });

  test("prefill copies the stored default verbatim (the sealed answer too); given instructions win", async () => {
    const d = await dir.client.callOk("invoiceservice.set_payment_default", {
      payment_instructions: { ...PI, reference: "  spaced  " },
      sender_entity_type: "cooperative",
      sender_entity_id: coop,
    });
    const inv = await draft(dir.client, coop, { payment_default_id: d.sid });
    expect(inv.sender_entity_type).toBe("cooperative");
    expect(inv.payment_instructions).toEqual({ ...PI, reference: "  spaced  ", security_answer: null });
    expect(await storedAnswer("zone_invoice", inv.sid)).toBe(await storedAnswer("invoice_payment_default", d.sid));
    const given = await draft(dir.client, coop, {
      payment_default_id: d.sid,
      payment_instructions: { ...PI, notes: "given" },
    });
    expect(given.payment_instructions?.notes).toBe("given");
    // Deleting the default leaves the prefilled invoice's copy.
    await dir.client.callOk("invoiceservice.delete_payment_default", { default_id: d.sid });
    expect(
      (await dir.client.callOk("invoiceservice.get", { invoice_id: inv.sid })).payment_instructions?.reference,
    ).toBe("  spaced  ");
  });

  test("another user's default: prefill InvalidInput, delete NotFound, listing -32002; it never shows", async () => {
    const d = await dir.client.callOk("invoiceservice.set_payment_default", {
      payment_instructions: PI,
      currency: "KES",
    });
    await refusedNoWrite(
      t,
      () =>
        member.client.call("invoiceservice.create", {
          fzc_id: company,
          data: { ...DATA, payment_default_id: d.sid },
        }),
      -32002,
      "Forbidden",
    );
    const owner2 = await t.register("def-owner2@example.org");
    const own = await insertCompany(t, owner2.userId);
    await refusedNoWrite(
      t,
      () => owner2.call("invoiceservice.create", { fzc_id: own, data: { ...DATA, payment_default_id: d.sid } }),
      -32006,
      "InvalidInput",
    );
    await refusedNoWrite(
      t,
      () => outsider.client.call("invoiceservice.delete_payment_default", { default_id: d.sid }),
      -32003,
      "NotFound",
    );
    await refusedNoWrite(
      t,
      () => outsider.client.call("invoiceservice.get_payment_defaults", { owner_user_id: dir.client.userId }),
      -32002,
      "NotOwner",
    );
    expect((await outsider.client.callOk("invoiceservice.get_payment_defaults", {})).items).toEqual([]);
  });

  test("set refusals: half an entity InvalidInput, wrong type InvalidInput, a member Forbidden, an outsider NotFound", async () => {
    const set = (c: Client, params: Record<string, unknown>) => () =>
      c.call("invoiceservice.set_payment_default", { payment_instructions: PI, ...params } as never);
    await refusedNoWrite(t, set(dir.client, { sender_entity_id: company }), -32006, "InvalidInput");
    await refusedNoWrite(t, set(dir.client, { sender_entity_type: "company" }), -32006, "InvalidInput");
    await refusedNoWrite(
      t,
      set(dir.client, { sender_entity_type: "cooperative", sender_entity_id: company }),
      -32006,
      "InvalidInput",
    );
    await refusedNoWrite(
      t,
      set(member.client, { sender_entity_type: "company", sender_entity_id: company }),
      -32002,
      "Forbidden",
    );
    await refusedNoWrite(
      t,
      set(outsider.client, { sender_entity_type: "company", sender_entity_id: company }),
      -32003,
      "NotFound",
    );
    await refusedNoWrite(t, set(dir.client, { currency: "usd" }), -32602, null);
  });

  test("delete: the owner deletes once; the second time is NotFound", async () => {
    const d = await outsider.client.callOk("invoiceservice.set_payment_default", { payment_instructions: PI });
    expect(await outsider.client.callOk("invoiceservice.delete_payment_default", { default_id: d.sid })).toEqual({
      sid: d.sid,
      deleted: true,
    });
    await refusedNoWrite(
      t,
      () => outsider.client.call("invoiceservice.delete_payment_default", { default_id: d.sid }),
      -32003,
      "NotFound",
    );
  });
});
