import { beforeAll, describe, expect, test } from "vitest";
import type { CallReply, Client, TestApp } from "../support/app.ts";
import { COMPANY_MEMBERS, count, errorOf, oneAudience, refusedNoWrite as refused, sql } from "../support/helpers.ts";
import { DATA, draft, insertCompany, insertProxy, insertRole, person, startExpenseApp, writes } from "./support.ts";

let t: TestApp;
let company: string;
let other: string;
let owner: Client;
let dirA: { client: Client; resident: string };
let dirB: { client: Client; resident: string };
let member: { client: Client; resident: string };
let outsider: { client: Client; resident: string };
let admin: Client;

beforeAll(async () => {
  t = await startExpenseApp();
  owner = await t.register("exp-owner@example.org");
  company = await insertCompany(t, owner.userId);
  const otherOwner = await t.register("exp-other-owner@example.org");
  other = await insertCompany(t, otherOwner.userId);
  dirA = await person(t, company, "director");
  dirB = await person(t, company, "director");
  member = await person(t, company, "shareholder");
  outsider = await person(t, other, "director");
  admin = await t.admin();
});

/** The reply is the error (code, InvoiceError variant) and nothing was written. */
const refusedNoWrite = (call: () => Promise<CallReply<unknown>>, code: number, variant: string | null) =>
  refused(() => writes(t), call, code, variant === null ? null : { type: "InvoiceError", variant });

const submitted = async (by = dirA.client) => {
  const e = await draft(by, company);
  await by.callOk("expenseservice.submit", { expense_id: e.sid });
  return e;
};

describe("expenseservice.create", () => {
  test("a director records a draft with exact cents and its DocumentAudience row", async () => {
    const e = await draft(dirA.client, company, { amount: 0.1, vendor_name: "  Acme  " });
    expect(e).toMatchObject({
      ...DATA,
      amount: 0.1,
      vendor_name: "Acme",
      fzc_id: company,
      status: "draft",
      approved_by: null,
      rejected_by: null,
      rejection_reason: null,
      decided_at: null,
      created_at: t.clock.now().toISOString(),
    });
    const [row] = await sql(t, `select amount::text as amount, submitted_by from "zone_expense" where sid = ?`, [
      e.sid,
    ]);
    expect(row).toEqual({ amount: "0.10", submitted_by: null });
    const aud = await oneAudience(t, e.sid);
    expect(aud).toMatchObject({
      document_type: "expense",
      company_id: company,
      audience_computation: "expense_company_members",
      supersedes: null,
      created_by: dirA.client.userId,
    });
    // Relevant at the instant it was made (docs/decisions.md "Visibility of company records (issue 30)").
    expect(new Date(aud.document_relevant_from).toISOString()).toBe(t.clock.now().toISOString());
    expect(new Date(aud.document_relevant_to).getTime()).toBe(t.clock.now().getTime() + 1);
    expect([...aud.classification].sort()).toEqual(COMPANY_MEMBERS);
    expect(await count(t, "admin_action")).toBe(0);
  });

  test("edges: 0.01 and two decimals pass; receipt_url may be omitted", async () => {
    const { receipt_url: _, ...noUrl } = DATA;
    const e = await dirA.client.callOk("expenseservice.create", { fzc_id: company, data: { ...noUrl, amount: 0.01 } });
    expect(e).toMatchObject({ amount: 0.01, receipt_url: null });
    expect((await draft(dirA.client, company, { amount: 1234.56 })).amount).toBe(1234.56);
  });

  test("receipt_url is a link as file_url is: javascript:, http, internal hosts refused; nothing written (issue 29 item 8)", async () => {
    const e = await draft(dirA.client, company);
    for (const receipt_url of [
      "javascript:alert(document.cookie)",
      "http://example.org/r.pdf",
      "https://127.0.0.1/r.pdf",
      "https://user:pw@example.org/r.pdf",
      "data:text/html,<script>1</script>",
    ]) {
      await refusedNoWrite(
        () => dirA.client.call("expenseservice.create", { fzc_id: company, data: { ...DATA, receipt_url } }),
        -32006,
        "InvalidInput",
      );
      await refusedNoWrite(
        () => dirA.client.call("expenseservice.update", { expense_id: e.sid, data: { receipt_url } }),
        -32006,
        "InvalidInput",
      );
    }
    const ok = await draft(dirA.client, company, { receipt_url: " https://files.example.org/r.pdf " });
    expect(ok.receipt_url).toBe("https://files.example.org/r.pdf");
  });

  test("the owning user (founder) may record; a shareholder is Forbidden; another company's director NotFound", async () => {
    expect((await draft(owner, company)).status).toBe("draft");
    const create = (c: Client) => () => c.call("expenseservice.create", { fzc_id: company, data: DATA });
    await refusedNoWrite(create(member.client), -32002, "Forbidden");
    await refusedNoWrite(create(outsider.client), -32003, "NotFound");
    await refusedNoWrite(
      () => dirA.client.call("expenseservice.create", { fzc_id: "FZ-2026-Y999999", data: DATA }),
      -32003,
      "NotFound",
    );
  });

  test("bad amounts are InvalidAmount, unknown currencies and blank texts InvalidInput, nothing written", async () => {
    const create = (data: Record<string, unknown>) => () =>
      dirA.client.call("expenseservice.create", { fzc_id: company, data: { ...DATA, ...data } } as never);
    for (const amount of [0, -0.01, -10, 0.001, 10.123, 90_000_000_000_000.02, 1e20]) {
      await refusedNoWrite(create({ amount }), -32006, "InvalidAmount");
    }
    await refusedNoWrite(create({ currency: "XYZ" }), -32006, "InvalidInput");
    await refusedNoWrite(create({ currency: "usd" }), -32602, null);
    await refusedNoWrite(create({ amount: "12" }), -32602, null);
    for (const field of ["vendor_name", "receipt_number", "category"]) {
      await refusedNoWrite(create({ [field]: "   " }), -32006, "InvalidInput");
    }
  });

  test("an administrator's session records an AdminAction; an unknown company is NotFound for it too", async () => {
    const e = await draft(admin, company);
    const rows = await sql(t, `select action, target_type, target_id from "admin_action" where target_id = ?`, [e.sid]);
    expect(rows).toEqual([{ action: "create_expense", target_type: "expense", target_id: e.sid }]);
    await refusedNoWrite(
      () => admin.call("expenseservice.create", { fzc_id: "FZ-2026-Y999998", data: DATA }),
      -32003,
      "NotFound",
    );
  });
});

describe("expenseservice.list and get", () => {
  test("members list the company's expenses newest expense_date first; other companies' are not listed", async () => {
    const co = await insertCompany(t, owner.userId);
    await insertRole(t, co, dirA.resident, "director");
    await insertRole(t, co, member.resident, "shareholder");
    const older = await draft(dirA.client, co, { expense_date: "2026-01-01T00:00:00.000Z" });
    const newer = await draft(dirA.client, co, { expense_date: "2026-06-01T00:00:00.000Z" });
    await draft(dirA.client, company);
    const r = await member.client.callOk("expenseservice.list", { fzc_id: co });
    expect(r.items.map((i) => i.sid)).toEqual([newer.sid, older.sid]);
    expect(errorOf(await outsider.client.call("expenseservice.list", { fzc_id: co }))).toMatchObject({
      code: -32003,
      data: { type: "InvoiceError", variant: "NotFound" },
    });
  });

  test("get: any member reads; another company's member and an unknown id get NotFound", async () => {
    const e = await draft(dirA.client, company);
    expect(await member.client.callOk("expenseservice.get", { expense_id: e.sid })).toEqual(e);
    expect(await admin.callOk("expenseservice.get", { expense_id: e.sid })).toEqual(e);
    for (const r of [
      await outsider.client.call("expenseservice.get", { expense_id: e.sid }),
      await member.client.call("expenseservice.get", { expense_id: "nope" }),
    ]) {
      expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "InvoiceError", variant: "NotFound" } });
    }
  });

  test("a past role (valid_to = now, exclusive) no longer reads; valid_to a millisecond later still does", async () => {
    const e = await draft(dirA.client, company);
    const now = t.clock.now();
    const past = await person(t, company, "shareholder", { valid_to: now });
    const still = await person(t, company, "shareholder", { valid_to: new Date(now.getTime() + 1) });
    expect(errorOf(await past.client.call("expenseservice.get", { expense_id: e.sid })).code).toBe(-32003);
    expect((await still.client.callOk("expenseservice.get", { expense_id: e.sid })).sid).toBe(e.sid);
  });
});

describe("expenseservice.update", () => {
  test("a director changes a draft: absent fields unchanged, null clears receipt_url", async () => {
    const e = await draft(dirA.client, company);
    t.clock.advance(60);
    const u = await dirB.client.callOk("expenseservice.update", {
      expense_id: e.sid,
      data: { amount: 99.99, receipt_url: null, category: " travel " },
    });
    expect(u).toEqual({
      ...e,
      amount: 99.99,
      receipt_url: null,
      category: "travel",
      updated_at: t.clock.now().toISOString(),
    });
    expect(await dirA.client.callOk("expenseservice.get", { expense_id: e.sid })).toEqual(u);
  });

  test("refusals: member Forbidden, outsider NotFound, bad fields, not a draft; nothing written", async () => {
    const e = await draft(dirA.client, company);
    const update =
      (c: Client, data: Record<string, unknown>, expense_id = e.sid) =>
      () =>
        c.call("expenseservice.update", { expense_id, data } as never);
    await refusedNoWrite(update(member.client, { amount: 1 }), -32002, "Forbidden");
    await refusedNoWrite(update(outsider.client, { amount: 1 }), -32003, "NotFound");
    await refusedNoWrite(update(dirA.client, { amount: 1 }, "missing"), -32003, "NotFound");
    await refusedNoWrite(update(dirA.client, { amount: 0 }), -32006, "InvalidAmount");
    await refusedNoWrite(update(dirA.client, { amount: 5.555 }), -32006, "InvalidAmount");
    await refusedNoWrite(update(dirA.client, { currency: "ABC" }), -32006, "InvalidInput");
    await refusedNoWrite(update(dirA.client, { vendor_name: "" }), -32602, null);
    const s = await submitted();
    await refusedNoWrite(update(dirA.client, { amount: 1 }, s.sid), -32005, "InvalidState");
  });

  test("an administrator's submit and delete record AdminActions", async () => {
    const e = await draft(dirA.client, company);
    await admin.callOk("expenseservice.submit", { expense_id: e.sid });
    const d = await draft(dirA.client, company);
    await admin.callOk("expenseservice.delete", { fzc_id: company, expense_id: d.sid });
    const rows = await sql(t, `select action, target_id from "admin_action" where target_id in (?, ?) order by sid`, [
      e.sid,
      d.sid,
    ]);
    expect(rows).toEqual([
      { action: "submit_expense", target_id: e.sid },
      { action: "delete_expense", target_id: d.sid },
    ]);
    expect(await count(t, "admin_action", "target_id in (?, ?) and action like '%expense'", [e.sid, d.sid])).toBe(2);
  });

  test("an administrator's edit records an AdminAction", async () => {
    const e = await draft(dirA.client, company);
    await admin.callOk("expenseservice.update", { expense_id: e.sid, data: { amount: 3 } });
    expect(await count(t, "admin_action", "action = 'update_expense' and target_id = ?", [e.sid])).toBe(1);
  });
});

describe("expenseservice.delete", () => {
  test("a draft is deleted and its audience superseded by an empty window: nobody may view it any more", async () => {
    const e = await draft(dirA.client, company);
    t.clock.advance(30);
    expect(await dirB.client.callOk("expenseservice.delete", { fzc_id: company, expense_id: e.sid })).toEqual({
      sid: e.sid,
      deleted: true,
    });
    expect(await count(t, "zone_expense", "sid = ?", [e.sid])).toBe(0);
    const aud = await sql(t, `select * from "document_audience" where document_ref = ? order by sid`, [e.sid]);
    expect(aud).toHaveLength(2);
    expect(aud[1]).toMatchObject({ supersedes: aud[0].sid, company_id: company });
    expect(new Date(aud[1].document_relevant_to).getTime()).toBe(new Date(aud[1].document_relevant_from).getTime());
    const verdict = await dirA.client.callOk("documentaudienceservice.can_view", {
      subject_id: dirA.resident,
      document_ref: e.sid,
    });
    expect(verdict).toMatchObject({ can_view: false, reason: "no_matching_role", audience_sid: aud[1].sid });
  });

  test("refusals: another company's expense NotFound, member Forbidden, submitted/approved/rejected kept", async () => {
    const e = await draft(dirA.client, company);
    const del = (c: Client, fzc_id: string, expense_id: string) => () =>
      c.call("expenseservice.delete", { fzc_id, expense_id });
    await refusedNoWrite(del(outsider.client, other, e.sid), -32003, "NotFound");
    await refusedNoWrite(del(member.client, company, e.sid), -32002, "Forbidden");
    await refusedNoWrite(del(outsider.client, company, e.sid), -32003, "NotFound");
    const s = await submitted();
    await refusedNoWrite(del(dirA.client, company, s.sid), -32005, "InvalidState");
    const a = await submitted();
    await dirB.client.callOk("expenseservice.approve", { expense_id: a.sid, approved_by: dirB.resident });
    await refusedNoWrite(del(dirA.client, company, a.sid), -32005, "InvalidState");
    const r = await submitted();
    await dirB.client.callOk("expenseservice.reject", { expense_id: r.sid, rejected_by: dirB.resident, reason: "no" });
    await refusedNoWrite(del(dirA.client, company, r.sid), -32005, "InvalidState");
  });
});

describe("expenseservice.submit", () => {
  test("a director submits a draft; the submitter is recorded; a second submit is InvalidState", async () => {
    const e = await draft(dirA.client, company);
    const s = await dirA.client.callOk("expenseservice.submit", { expense_id: e.sid });
    expect(s).toMatchObject({ sid: e.sid, status: "submitted", decided_at: null });
    const [row] = await sql(t, `select submitted_by from "zone_expense" where sid = ?`, [e.sid]);
    expect(row.submitted_by).toBe(dirA.client.userId);
    await refusedNoWrite(
      () => dirA.client.call("expenseservice.submit", { expense_id: e.sid }),
      -32005,
      "InvalidState",
    );
  });

  test("a member is Forbidden, an outsider NotFound, nothing written", async () => {
    const e = await draft(dirA.client, company);
    await refusedNoWrite(() => member.client.call("expenseservice.submit", { expense_id: e.sid }), -32002, "Forbidden");
    await refusedNoWrite(
      () => outsider.client.call("expenseservice.submit", { expense_id: e.sid }),
      -32003,
      "NotFound",
    );
  });
});

describe("expenseservice.approve and reject", () => {
  test("another director approves: approved_by and decided_at recorded", async () => {
    const e = await submitted();
    t.clock.advance(120);
    const a = await dirB.client.callOk("expenseservice.approve", { expense_id: e.sid, approved_by: dirB.resident });
    expect(a).toMatchObject({
      status: "approved",
      approved_by: dirB.resident,
      rejected_by: null,
      decided_at: t.clock.now().toISOString(),
    });
    expect(await member.client.callOk("expenseservice.get", { expense_id: e.sid })).toEqual(a);
  });

  test("another director rejects with a trimmed reason; the 1,000-character edge passes", async () => {
    const e = await submitted();
    const r = await dirB.client.callOk("expenseservice.reject", {
      expense_id: e.sid,
      rejected_by: dirB.resident,
      reason: "  no receipt  ",
    });
    expect(r).toMatchObject({ status: "rejected", rejected_by: dirB.resident, rejection_reason: "no receipt" });
    expect(r.decided_at).toBe(t.clock.now().toISOString());
    const e2 = await submitted();
    const long = "x".repeat(1000);
    const r2 = await dirB.client.callOk("expenseservice.reject", {
      expense_id: e2.sid,
      rejected_by: dirB.resident,
      reason: long,
    });
    expect(r2.rejection_reason).toBe(long);
  });

  test("reject refuses a blank or over-long reason (InvalidInput), nothing written", async () => {
    const e = await submitted();
    for (const reason of ["", "   ", "x".repeat(1001)]) {
      await refusedNoWrite(
        () => dirB.client.call("expenseservice.reject", { expense_id: e.sid, rejected_by: dirB.resident, reason }),
        -32006,
        "InvalidInput",
      );
    }
  });

  test("the submitter may not decide (SelfApproval), also through a proxy for their resident", async () => {
    const e = await submitted(dirA.client);
    await refusedNoWrite(
      () => dirA.client.call("expenseservice.approve", { expense_id: e.sid, approved_by: dirA.resident }),
      -32006,
      "SelfApproval",
    );
    await refusedNoWrite(
      () => dirA.client.call("expenseservice.reject", { expense_id: e.sid, rejected_by: dirA.resident, reason: "x" }),
      -32006,
      "SelfApproval",
    );
    const helper = await person(t, null, null);
    await insertProxy(t, helper.resident, dirA.resident);
    await refusedNoWrite(
      () => helper.client.call("expenseservice.approve", { expense_id: e.sid, approved_by: dirA.resident }),
      -32006,
      "SelfApproval",
    );
  });

  test("a resident holding the founder role decides; a director's ordinary call writes no AdminAction", async () => {
    const e = await submitted(dirA.client);
    const founder = await person(t, company, "founder");
    const before = await count(t, "admin_action");
    const a = await founder.client.callOk("expenseservice.approve", {
      expense_id: e.sid,
      approved_by: founder.resident,
    });
    expect(a).toMatchObject({ status: "approved", approved_by: founder.resident });
    expect(await count(t, "admin_action")).toBe(before);
  });

  test("a proxy holder acts for a director who did not submit", async () => {
    const e = await submitted(dirA.client);
    const helper = await person(t, null, null);
    await insertProxy(t, helper.resident, dirB.resident);
    const a = await helper.client.callOk("expenseservice.approve", { expense_id: e.sid, approved_by: dirB.resident });
    expect(a).toMatchObject({ status: "approved", approved_by: dirB.resident });
  });

  test("who may not decide: not owned NotOwner, a shareholder Forbidden, an outsider NotFound", async () => {
    const e = await submitted();
    const approve = (c: Client, approved_by: string) => () =>
      c.call("expenseservice.approve", { expense_id: e.sid, approved_by });
    await refusedNoWrite(approve(member.client, dirB.resident), -32002, "NotOwner");
    await refusedNoWrite(approve(member.client, member.resident), -32002, "Forbidden");
    await refusedNoWrite(approve(outsider.client, outsider.resident), -32003, "NotFound");
    // A director of the company deciding through a resident with no role there: Forbidden.
    const nobody = await person(t, null, null);
    await insertProxy(t, dirB.resident, nobody.resident);
    await refusedNoWrite(approve(dirB.client, nobody.resident), -32002, "Forbidden");
    await refusedNoWrite(
      () =>
        member.client.call("expenseservice.reject", { expense_id: e.sid, rejected_by: member.resident, reason: "x" }),
      -32002,
      "Forbidden",
    );
    // A director role that ended at now (exclusive) no longer decides.
    const former = await person(t, company, "director", { valid_to: t.clock.now() });
    await refusedNoWrite(approve(former.client, former.resident), -32003, "NotFound");
  });

  test("only submitted expenses are decided: draft, approved and rejected are InvalidState", async () => {
    const d = await draft(dirA.client, company);
    const a = await submitted();
    await dirB.client.callOk("expenseservice.approve", { expense_id: a.sid, approved_by: dirB.resident });
    const r = await submitted();
    await dirB.client.callOk("expenseservice.reject", { expense_id: r.sid, rejected_by: dirB.resident, reason: "no" });
    for (const e of [d, a, r]) {
      await refusedNoWrite(
        () => dirB.client.call("expenseservice.approve", { expense_id: e.sid, approved_by: dirB.resident }),
        -32005,
        "InvalidState",
      );
      await refusedNoWrite(
        () => dirB.client.call("expenseservice.reject", { expense_id: e.sid, rejected_by: dirB.resident, reason: "x" }),
        -32005,
        "InvalidState",
      );
      if (e !== d) {
        await refusedNoWrite(
          () => dirA.client.call("expenseservice.submit", { expense_id: e.sid }),
          -32005,
          "InvalidState",
        );
      }
    }
  });

  test("racing approve and reject: exactly one wins, the other is InvalidState", async () => {
    for (let i = 0; i < 5; i++) {
      const e = await submitted();
      const replies = await Promise.all([
        dirB.client.call("expenseservice.approve", { expense_id: e.sid, approved_by: dirB.resident }),
        dirB.client.call("expenseservice.reject", { expense_id: e.sid, rejected_by: dirB.resident, reason: "r" }),
        dirB.client.call("expenseservice.approve", { expense_id: e.sid, approved_by: dirB.resident }),
      ]);
      const ok = replies.filter((r) => "result" in r);
      expect(ok).toHaveLength(1);
      for (const r of replies.filter((r) => "error" in r)) {
        expect(errorOf(r).data).toMatchObject({ variant: "InvalidState" });
      }
      const [row] = await sql(t, `select status, approved_by, rejected_by from "zone_expense" where sid = ?`, [e.sid]);
      const won = (ok[0] as { result: { status: string } }).result.status;
      expect(row.status).toBe(won);
      expect(won === "approved" ? row.rejected_by : row.approved_by).toBeNull();
    }
  });

  test("racing submit and delete of a draft: exactly one wins", async () => {
    for (let i = 0; i < 5; i++) {
      const e = await draft(dirA.client, company);
      const replies = await Promise.all([
        dirA.client.call("expenseservice.submit", { expense_id: e.sid }),
        dirA.client.call("expenseservice.delete", { fzc_id: company, expense_id: e.sid }),
      ]);
      expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    }
  });
});
