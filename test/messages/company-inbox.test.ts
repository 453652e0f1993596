import { beforeAll, describe, expect, test } from "vitest";
import type { MessageResult } from "../../generated/types.ts";
import type { CallReply, Client, TestApp } from "../support/app.ts";
import { insertCompany, person, startFinanceApp } from "../support/entities.ts";
import { COMPANY_MEMBERS, count, oneAudience, refusedNoWrite as refused, sql } from "../support/helpers.ts";

let t: TestApp;
let company: string;
let other: string;
let owner: Client;
let director: Client;
let holder: Client;
let outsider: Client;
let admin: Client;

beforeAll(async () => {
  t = await startFinanceApp();
  owner = await t.register("cmsg-owner@example.org");
  company = await insertCompany(t, owner.userId);
  const otherOwner = await t.register("cmsg-other@example.org");
  other = await insertCompany(t, otherOwner.userId);
  director = (await person(t, company, "director")).client;
  holder = (await person(t, company, "shareholder")).client;
  outsider = (await person(t, other, "director")).client;
  admin = await t.admin();
});

const writes = async () => ({
  messages: await sql(t, `select * from "company_message" order by sid`),
  audiences: await count(t, "document_audience"),
  adminActions: await count(t, "admin_action"),
});
const refusedNoWrite = (call: () => Promise<CallReply<unknown>>, code: number, variant: string | null) =>
  refused(writes, call, code, variant === null ? null : { type: "MessageError", variant });

async function post(title: string, by = director, company_id = company): Promise<MessageResult> {
  t.clock.advance(1);
  return by.callOk("messageservice.create_company_message", { company_id, title, body: `${title} body` });
}

describe("messageservice.create_company_message", () => {
  test("a director posts an unread notification with its DocumentAudience row (every member tier)", async () => {
    const m = await director.callOk("messageservice.create_company_message", {
      company_id: company,
      title: " Board ",
      body: " Meeting at 10 ",
      category: "company",
    });
    expect(m).toMatchObject({
      company_id: company,
      title: "Board",
      body: "Meeting at 10",
      message_type: "notification",
      category: "company",
      action_url: null,
      is_read: false,
      created_at: t.clock.now().toISOString(),
    });
    const aud = await oneAudience(t, m.sid);
    expect(aud).toMatchObject({
      document_type: "inbox_message",
      company_id: company,
      audience_computation: "company_message_members",
      supersedes: null,
      created_by: director.userId,
    });
    // Relevant at the instant it was sent (docs/decisions.md "Visibility of company records (issue 30)").
    expect(new Date(aud.document_relevant_to).getTime()).toBe(new Date(aud.document_relevant_from).getTime() + 1);
    expect([...aud.classification].sort()).toEqual(COMPANY_MEMBERS);
  });

  test("refusals: a shareholder (Forbidden), another company's director (NotFound), blank texts; nothing written", async () => {
    const ok = { company_id: company, title: "T", body: "B" };
    await refusedNoWrite(() => holder.call("messageservice.create_company_message", ok), -32002, "Forbidden");
    await refusedNoWrite(() => outsider.call("messageservice.create_company_message", ok), -32003, "NotFound");
    await refusedNoWrite(
      () => director.call("messageservice.create_company_message", { ...ok, title: " " }),
      -32006,
      "InvalidInput",
    );
    await refusedNoWrite(
      () => director.call("messageservice.create_company_message", { ...ok, body: "" }),
      -32006,
      "InvalidInput",
    );
  });

  test("an administrator may post (AdminAction recorded); an unknown company is NotFound", async () => {
    const before = await count(t, "admin_action");
    const m = await post("From the zone", admin);
    expect(m.company_id).toBe(company);
    expect(await count(t, "admin_action", "action = 'create_company_message'")).toBe(1);
    expect(await count(t, "admin_action")).toBe(before + 1);
    await refusedNoWrite(
      () =>
        admin.call("messageservice.create_company_message", { company_id: "FZ-2026-Y999999", title: "T", body: "B" }),
      -32003,
      "NotFound",
    );
  });
});

describe("company inbox", () => {
  let a: MessageResult;
  let b: MessageResult;
  let foreign: MessageResult;

  beforeAll(async () => {
    a = await post("A");
    b = await post("B");
    foreign = await post("Other", outsider, other);
  });

  test("list: any member, newest first, only this company's; outsiders NotFound", async () => {
    const list = await holder.callOk("messageservice.list_company_messages", { company_id: company });
    expect(list.items.slice(0, 2).map((m) => m.sid)).toEqual([b.sid, a.sid]);
    expect(list.items.every((m) => m.company_id === company)).toBe(true);
    expect(list.items.some((m) => m.sid === foreign.sid)).toBe(false);
    await refusedNoWrite(
      () => outsider.call("messageservice.list_company_messages", { company_id: company }),
      -32003,
      "NotFound",
    );
  });

  test("the read flag is shared: one member's mark is seen by the others; counts only changes", async () => {
    expect(await holder.callOk("messageservice.mark_company_read", { company_id: company, message_id: a.sid })).toEqual(
      { message_id: a.sid, is_read: true, updated_count: 1 },
    );
    const seen = await director.callOk("messageservice.list_company_messages", { company_id: company });
    expect(seen.items.find((m) => m.sid === a.sid)?.is_read).toBe(true);
    expect(
      (await director.callOk("messageservice.mark_company_read", { company_id: company, message_id: a.sid }))
        .updated_count,
    ).toBe(0);
    expect(
      await director.callOk("messageservice.mark_company_unread", { company_id: company, message_id: a.sid }),
    ).toEqual({ message_id: a.sid, is_read: false, updated_count: 1 });
    expect(
      (await director.callOk("messageservice.mark_company_unread", { company_id: company, message_id: a.sid }))
        .updated_count,
    ).toBe(0);
  });

  test("bulk marks change only this company's messages", async () => {
    const total = await count(t, "company_message", "company_id = ?", [company]);
    expect(await holder.callOk("messageservice.mark_all_company_read", { company_id: company })).toEqual({
      message_id: null,
      is_read: true,
      updated_count: total,
    });
    expect((await holder.callOk("messageservice.mark_all_company_read", { company_id: company })).updated_count).toBe(
      0,
    );
    const [f] = await sql(t, `select is_read from "company_message" where sid = ?`, [foreign.sid]);
    expect(f?.is_read).toBe(false);
    expect((await holder.callOk("messageservice.mark_all_company_unread", { company_id: company })).updated_count).toBe(
      total,
    );
    expect(await count(t, "company_message", "company_id = ? and is_read", [company])).toBe(0);
  });

  test("another company's message or an outsider is NotFound, nothing changed", async () => {
    for (const method of ["messageservice.mark_company_read", "messageservice.mark_company_unread"] as const) {
      await refusedNoWrite(
        () => director.call(method, { company_id: company, message_id: foreign.sid }),
        -32003,
        "NotFound",
      );
      await refusedNoWrite(() => outsider.call(method, { company_id: company, message_id: a.sid }), -32003, "NotFound");
    }
    for (const method of ["messageservice.mark_all_company_read", "messageservice.mark_all_company_unread"] as const) {
      await refusedNoWrite(() => outsider.call(method, { company_id: company }), -32003, "NotFound");
    }
  });
});
