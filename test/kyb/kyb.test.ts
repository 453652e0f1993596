import { beforeEach, describe, expect, test } from "vitest";
import type { ExternalCompanyRegistrationResult } from "../../generated/types.ts";
import { newPartner } from "../registration-requests/support.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";
import { deliver, kybVerdict, userWithResident } from "./support.ts";

let t: TestApp;
let admin: Client;
let ada: Client;
let adaResident: string;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  ({ client: ada, residentId: adaResident } = await userWithResident(t, "ada@example.org"));
});

const company = (changes: Record<string, unknown> = {}) => ({
  legal_name: "Acme Trading Ltd",
  jurisdiction: "gb",
  registration_number: "01234567",
  documents: ["https://files.example.org/incorporation.pdf"],
  ...changes,
});
const submit = (changes: Record<string, unknown> = {}, caller: Client = ada) =>
  caller.rpc("kybservice.submit", company(changes));
async function submitted(changes: Record<string, unknown> = {}): Promise<ExternalCompanyRegistrationResult> {
  const r = await submit(changes);
  if (!r.result) throw new Error(JSON.stringify(r.error));
  return r.result;
}
async function checking(changes: Record<string, unknown> = {}): Promise<ExternalCompanyRegistrationResult> {
  const r = await submitted(changes);
  return ada.callOk("kybservice.start_check", { registration_id: r.registration_id });
}
const row = async (id: string) =>
  (await sql(t, `select * from "external_company_registration" where sid = ?`, [id]))[0];
const mayActFor = async (client: Client, residentId: string) =>
  (await client.rpc("treasuryservice.list_resident_accounts", { resident_id: residentId })).error?.data?.variant !==
  "NotOwner";

describe("submit, get, list", () => {
  test("submit stores a pending registration, trimmed, with the caller and its resident as submitter", async () => {
    const r = await submitted({ legal_name: " Acme Trading Ltd ", registration_number: " 01234567 " });
    expect(r).toEqual({
      registration_id: expect.any(String),
      user_id: ada.userId,
      submitter_dr_id: adaResident,
      legal_name: "Acme Trading Ltd",
      jurisdiction: "GB",
      registration_number: "01234567",
      kyb_status: "pending",
      documents: ["https://files.example.org/incorporation.pdf"],
      approved_by: null,
      linked_dr_id: null,
      kyb_scan_ref: null,
      kyb_provider: null,
      kyb_provider_status: null,
      kyb_checked_at: null,
      rejection_reason: null,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
  });

  test("a caller without a personal resident is InvalidState; blank fields InvalidInput; bounds -32602", async () => {
    const bob = await t.register("bob@example.org");
    const noResident = await submit({}, bob);
    expect(noResident.error).toMatchObject({ code: -32005, data: { type: "KybError", variant: "InvalidState" } });
    const blank = await submit({ legal_name: "   " });
    expect(blank.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "legal_name" } });
    const partner = await newPartner(t, admin);
    const viaReseller = await partner.rpc("kybservice.submit", company());
    expect(viaReseller.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const noDocuments = await submit({ documents: [] });
    expect(noDocuments.error?.code).toBe(-32602);
    expect(await count(t, "external_company_registration")).toBe(0);
  });

  test("an open or approved registration of the same company is AlreadyExists; a rejected one frees it", async () => {
    const first = await submitted();
    const again = await submit({ jurisdiction: " GB " });
    expect(again.error).toMatchObject({ code: -32005, data: { variant: "AlreadyExists" } });
    expect((await submit({ jurisdiction: "IE" })).result).toBeDefined();
    await admin.callOk("kybservice.reject", { registration_id: first.registration_id, reason: "wrong number" });
    expect((await submit()).result).toBeDefined();
    expect(await count(t, "external_company_registration")).toBe(3);
  });

  test("get answers the submitter and administrators; anyone else and unknown ids NotFound", async () => {
    const r = await submitted();
    expect((await ada.callOk("kybservice.get", { registration_id: r.registration_id })).registration_id).toBe(
      r.registration_id,
    );
    expect((await admin.callOk("kybservice.get", { registration_id: r.registration_id })).legal_name).toBe(
      "Acme Trading Ltd",
    );
    const { client: bob } = await userWithResident(t, "bob@example.org");
    for (const id of [r.registration_id, "nope"]) {
      const other = await bob.rpc("kybservice.get", { registration_id: id });
      expect(other.error).toMatchObject({ code: -32003, data: { type: "KybError", variant: "NotFound" } });
    }
  });

  test("list shows the caller's registrations newest first by status and cursor; administrators see all", async () => {
    const { client: bob } = await userWithResident(t, "bob@example.org");
    await submit({ registration_number: "B-1" }, bob);
    const a1 = await submitted({ registration_number: "A-1" });
    t.clock.advance(1);
    const a2 = await submitted({ registration_number: "A-2" });
    await ada.callOk("kybservice.start_check", { registration_id: a2.registration_id });
    const page = await ada.callOk("kybservice.list", { limit: 1 });
    expect(page.items.map((i) => i.registration_id)).toEqual([a2.registration_id]);
    const next = await ada.callOk("kybservice.list", { limit: 1, cursor: page.next_cursor ?? "" });
    expect(next).toEqual({
      items: [expect.objectContaining({ registration_id: a1.registration_id })],
      next_cursor: null,
    });
    const pending = await ada.callOk("kybservice.list", { status: "pending" });
    expect(pending.items.map((i) => i.registration_id)).toEqual([a1.registration_id]);
    expect((await admin.callOk("kybservice.list", {})).items).toHaveLength(3);
    const bad = await ada.rpc("kybservice.list", { cursor: "garbage" });
    expect(bad.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
  });
});

describe("start_check", () => {
  test("opens the provider's check: in_progress with the sandbox's scan reference", async () => {
    const r = await checking();
    expect(r).toMatchObject({
      kyb_status: "in_progress",
      kyb_provider: "sandbox",
      kyb_scan_ref: expect.stringMatching(/^sbx-kyb-[0-9a-f]{24}$/),
    });
    expect((await row(r.registration_id)).kyb_scan_ref).toBe(r.kyb_scan_ref);
  });

  test("only a pending registration is checked; a stranger gets NotFound; a provider outage changes nothing", async () => {
    const r = await checking();
    const again = await ada.rpc("kybservice.start_check", { registration_id: r.registration_id });
    expect(again.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const { client: bob } = await userWithResident(t, "bob@example.org");
    const stranger = await bob.rpc("kybservice.start_check", { registration_id: r.registration_id });
    expect(stranger.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    const down = await submitted({ registration_number: "sandbox-unavailable-9" });
    const failed = await ada.rpc("kybservice.start_check", { registration_id: down.registration_id });
    expect(failed.error).toMatchObject({ code: -32009, data: { type: "KybError", variant: "ProviderUnavailable" } });
    expect(await row(down.registration_id)).toMatchObject({ kyb_status: "pending", kyb_scan_ref: null });
  });

  test("an administrator may start the check", async () => {
    const r = await submitted();
    const started = await admin.callOk("kybservice.start_check", { registration_id: r.registration_id });
    expect(started.kyb_status).toBe("in_progress");
  });
});

describe("approve and reject", () => {
  test("approval creates the external-company resident, links it and gives the submitter a proxy for it", async () => {
    const r = await checking();
    await deliver(t, kybVerdict(t, r.kyb_scan_ref ?? "", r.registration_number));
    t.clock.advance(60);
    const approved = await admin.callOk("kybservice.approve", { registration_id: r.registration_id, note: "fine" });
    expect(approved).toMatchObject({
      kyb_status: "approved",
      approved_by: admin.email,
      linked_dr_id: "FZ-2026-RA000001",
      kyb_provider_status: "approved",
      updated_at: t.clock.now().toISOString(),
    });
    const resident = (
      await sql(t, `select * from "digital_resident" where resident_id = ?`, [approved.linked_dr_id])
    )[0];
    expect(resident).toMatchObject({
      user_id: null,
      partner_id: null,
      first_name: "Acme Trading Ltd",
      email: "ada@example.org",
      resident_type: "external_company",
      source: "admin",
      status: "pending",
    });
    const proxies = await admin.callOk("proxyservice.list_proxies", { resident_id: adaResident });
    expect(proxies.items).toEqual([
      expect.objectContaining({
        principal_dr_id: adaResident,
        target_dr_id: approved.linked_dr_id,
        role: "admin_proxy",
        status: "active",
        valid_to: null,
        effective: true,
        created_by: admin.email,
      }),
    ]);
    // Someone can act for the company now: its submitter, through the proxy, and nobody else.
    expect(await mayActFor(ada, approved.linked_dr_id ?? "")).toBe(true);
    const { client: bob } = await userWithResident(t, "bob@example.org");
    expect(await mayActFor(bob, approved.linked_dr_id ?? "")).toBe(false);
    // The resident services honour the same proxy: the submitter reads the company's resident, bob does not.
    const seen = await ada.callOk("residentservice.get", { resident_id: approved.linked_dr_id ?? "" });
    expect(seen.resident_id).toBe(approved.linked_dr_id);
    const hidden = await bob.rpc("residentservice.get", { resident_id: approved.linked_dr_id });
    expect(hidden.error).toMatchObject({ code: -32003 });
    const audit = await sql(t, `select action, target_ref, target_type, allowed from "user_audit_log"`);
    expect(audit).toEqual([{ action: "other", target_ref: r.registration_id, target_type: "other", allowed: true }]);
    const actions = await sql(t, `select action, target_id, details from "admin_action" order by sid`);
    expect(actions.map((a) => a.action)).toEqual(["approve_kyb"]);
    expect(JSON.parse(actions[0].details)).toMatchObject({ resident_created: true, note: "fine" });
  });

  test("the provider's verdict is advisory: a denied company can still be approved with the gate off", async () => {
    const r = await checking({ registration_number: "denied-42" });
    await deliver(t, kybVerdict(t, r.kyb_scan_ref ?? "", r.registration_number));
    expect((await row(r.registration_id)).kyb_provider_status).toBe("denied");
    const approved = await admin.callOk("kybservice.approve", { registration_id: r.registration_id });
    expect(approved.kyb_status).toBe("approved");
    // A pending registration without any check can be approved too.
    const unchecked = await submitted({ registration_number: "X-2" });
    expect((await admin.callOk("kybservice.approve", { registration_id: unchecked.registration_id })).kyb_status).toBe(
      "approved",
    );
  });

  test("with the hard gate on only a provider-approved company is approved", async () => {
    t = await startTestApp({ kybHardGate: true });
    admin = await t.admin();
    ({ client: ada, residentId: adaResident } = await userWithResident(t, "ada@example.org"));
    for (const number of ["suspected-1", "pending-1", "denied-1"]) {
      const r = await checking({ registration_number: number });
      await deliver(t, kybVerdict(t, r.kyb_scan_ref ?? "", number));
      const refused = await admin.rpc("kybservice.approve", { registration_id: r.registration_id });
      expect(refused.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
      expect((await row(r.registration_id)).kyb_status).toBe("in_progress");
    }
    const unchecked = await submitted({ registration_number: "none-1" });
    const noVerdict = await admin.rpc("kybservice.approve", { registration_id: unchecked.registration_id });
    expect(noVerdict.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const good = await checking({ registration_number: "good-1" });
    await deliver(t, kybVerdict(t, good.kyb_scan_ref ?? "", "good-1"));
    expect((await admin.callOk("kybservice.approve", { registration_id: good.registration_id })).kyb_status).toBe(
      "approved",
    );
    expect(await count(t, "digital_resident", "resident_type = 'external_company'")).toBe(1);
    expect(await count(t, "user_audit_log", "action = 'other' and not allowed")).toBe(4);
  });

  test("approval may link an existing external_company resident instead of creating one", async () => {
    const existing = "FZ-2025-RA900001";
    await insertRow(
      t.app.runtime.orm,
      "DigitalResident",
      residentValues("", { resident_id: existing, user_id: null, resident_type: "external_company" }),
    );
    const r = await submitted();
    const approved = await admin.callOk("kybservice.approve", {
      registration_id: r.registration_id,
      resident_id: existing,
    });
    expect(approved.linked_dr_id).toBe(existing);
    expect(await count(t, "digital_resident", "resident_type = 'external_company'")).toBe(1);
    expect(await mayActFor(ada, existing)).toBe(true);
    // Linked now, so a second registration cannot link it; a personal resident never can; unknown ids NotFound.
    const second = await submitted({ registration_number: "2" });
    const linked = await admin.rpc("kybservice.approve", {
      registration_id: second.registration_id,
      resident_id: existing,
    });
    expect(linked.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "resident_id" } });
    const personal = await admin.rpc("kybservice.approve", {
      registration_id: second.registration_id,
      resident_id: adaResident,
    });
    expect(personal.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const unknown = await admin.rpc("kybservice.approve", {
      registration_id: second.registration_id,
      resident_id: "FZ-2025-RA999999",
    });
    expect(unknown.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect((await row(second.registration_id)).kyb_status).toBe("pending");
  });

  test("an admin_proxy the submitter already holds for a linked resident is kept, not doubled", async () => {
    const existing = "FZ-2025-RA900002";
    await insertRow(
      t.app.runtime.orm,
      "DigitalResident",
      residentValues("", { resident_id: existing, user_id: null, resident_type: "external_company" }),
    );
    const held = await admin.callOk("proxyservice.create_proxy", {
      principal_dr_id: adaResident,
      target_dr_id: existing,
      role: "admin_proxy",
    });
    const r = await submitted();
    await admin.callOk("kybservice.approve", { registration_id: r.registration_id, resident_id: existing });
    const proxies = await admin.callOk("proxyservice.list_proxies", { resident_id: existing });
    expect(proxies.items.map((p) => p.sid)).toEqual([held.sid]);
  });

  test("reject stores the reason the submitter reads; decided registrations are InvalidState", async () => {
    const r = await checking();
    const blank = await admin.rpc("kybservice.reject", { registration_id: r.registration_id, reason: "  " });
    expect(blank.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const rejected = await admin.callOk("kybservice.reject", {
      registration_id: r.registration_id,
      reason: " register entry not found ",
    });
    expect(rejected).toMatchObject({ kyb_status: "rejected", rejection_reason: "register entry not found" });
    expect((await ada.callOk("kybservice.get", { registration_id: r.registration_id })).rejection_reason).toBe(
      "register entry not found",
    );
    for (const [method, params] of [
      ["kybservice.approve", {}],
      ["kybservice.reject", { reason: "x" }],
    ] as const) {
      const again = await admin.rpc(method, { registration_id: r.registration_id, ...params });
      expect(again.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    }
    const approved = await submitted({ registration_number: "9" });
    await admin.callOk("kybservice.approve", { registration_id: approved.registration_id });
    const rejectApproved = await admin.rpc("kybservice.reject", {
      registration_id: approved.registration_id,
      reason: "x",
    });
    expect(rejectApproved.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const unknown = await admin.rpc("kybservice.reject", { registration_id: "nope", reason: "x" });
    expect(unknown.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect((await sql(t, `select action from "admin_action" order by sid`)).map((a) => a.action)).toEqual([
      "reject_kyb",
      "approve_kyb",
    ]);
  });

  test("a user cannot approve or reject (AdminOnly, audited allowed false), and nothing changes", async () => {
    const r = await submitted();
    for (const [method, params] of [
      ["kybservice.approve", {}],
      ["kybservice.reject", { reason: "x" }],
    ] as const) {
      const refused = await ada.rpc(method, { registration_id: r.registration_id, ...params });
      expect(refused.error).toMatchObject({ code: -32002, data: { type: "KybError", variant: "AdminOnly" } });
    }
    expect((await row(r.registration_id)).kyb_status).toBe("pending");
    expect(
      await count(t, "user_audit_log", "action = 'other' and not allowed and target_ref = ?", [r.registration_id]),
    ).toBe(2);
    expect(await count(t, "proxy")).toBe(0);
  });
});
