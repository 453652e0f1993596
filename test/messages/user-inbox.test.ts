import { beforeAll, describe, expect, test } from "vitest";
import type { MessageResult } from "../../generated/types.ts";
import type { CallReply, Client, TestApp } from "../support/app.ts";
import { startFinanceApp } from "../support/entities.ts";
import { count, refusedNoWrite as refused, sql } from "../support/helpers.ts";

let t: TestApp;
let alice: Client;
let bob: Client;
let admin: Client;

beforeAll(async () => {
  t = await startFinanceApp();
  alice = await t.register("msg-alice@example.org");
  bob = await t.register("msg-bob@example.org");
  admin = await t.admin();
});

const writes = async () => ({
  messages: await sql(t, `select * from "user_message" order by sid`),
  adminActions: await count(t, "admin_action"),
});
const refusedNoWrite = (call: () => Promise<CallReply<unknown>>, code: number, variant: string | null) =>
  refused(writes, call, code, variant === null ? null : { type: "MessageError", variant });

async function send(to: Client, title: string, extra: Record<string, unknown> = {}): Promise<MessageResult> {
  t.clock.advance(1);
  return admin.callOk("messageservice.create_system_message", {
    user_id: to.userId,
    title,
    body: `${title} body`,
    ...extra,
  });
}

describe("messageservice.create_system_message", () => {
  test("an administrator posts an unread system message and records an AdminAction", async () => {
    const before = await count(t, "admin_action");
    const m = await send(bob, "  Welcome  ", { category: "account", action_url: "https://freezone.example/x" });
    expect(m).toMatchObject({
      company_id: null,
      title: "Welcome",
      body: "Welcome   body",
      message_type: "system",
      category: "account",
      action_url: "https://freezone.example/x",
      action_label: null,
      is_read: false,
      created_at: t.clock.now().toISOString(),
    });
    expect(await count(t, "admin_action")).toBe(before + 1);
    const [a] = await sql(t, `select action, target_type, target_id from "admin_action" order by sid desc limit 1`);
    expect(a).toEqual({ action: "create_system_message", target_type: "user", target_id: bob.userId });
    const noCategory = await send(bob, "Plain");
    expect(noCategory).toMatchObject({ category: null, action_url: null });
  });

  test("refusals: not an administrator, unknown user, blank title/body, non-https link; nothing written", async () => {
    const ok = { user_id: bob.userId, title: "T", body: "B" };
    await refusedNoWrite(() => alice.call("messageservice.create_system_message", ok), -32002, "AdminOnly");
    await refusedNoWrite(
      () => admin.call("messageservice.create_system_message", { ...ok, user_id: "no-such-user" }),
      -32003,
      "NotFound",
    );
    for (const bad of [{ title: "   " }, { body: "" }, { title: "x".repeat(201) }]) {
      await refusedNoWrite(
        () => admin.call("messageservice.create_system_message", { ...ok, ...bad }),
        -32006,
        "InvalidInput",
      );
    }
    for (const action_url of ["http://freezone.example/x", "javascript:alert(1)", "not a url", "ftp://a.example"]) {
      await refusedNoWrite(
        () => admin.call("messageservice.create_system_message", { ...ok, action_url }),
        -32006,
        "InvalidInput",
      );
    }
    const edge = await admin.callOk("messageservice.create_system_message", { ...ok, title: "x".repeat(200) });
    expect(edge.title).toHaveLength(200);
    await bob.callOk("messageservice.delete_message", { message_id: edge.sid });
  });
});

describe("user inbox", () => {
  let m1: MessageResult;
  let m2: MessageResult;
  let m3: MessageResult;
  let foreign: MessageResult;

  beforeAll(async () => {
    m1 = await send(alice, "First", { category: "kyc" });
    m2 = await send(alice, "Second", { category: "payment" });
    m3 = await send(alice, "Third", { category: "kyc" });
    foreign = await send(bob, "Bob only");
  });

  test("list: newest first, only the caller's, filters by category and read state", async () => {
    const all = await alice.callOk("messageservice.list_user_messages", {});
    expect(all.items.map((m) => m.sid)).toEqual([m3.sid, m2.sid, m1.sid]);
    const kyc = await alice.callOk("messageservice.list_user_messages", { category: "kyc" });
    expect(kyc.items.map((m) => m.sid)).toEqual([m3.sid, m1.sid]);
    await alice.callOk("messageservice.mark_as_read", { message_id: m1.sid });
    const unread = await alice.callOk("messageservice.list_user_messages", { is_read: false });
    expect(unread.items.map((m) => m.sid)).toEqual([m3.sid, m2.sid]);
    const readKyc = await alice.callOk("messageservice.list_user_messages", { category: "kyc", is_read: true });
    expect(readKyc.items.map((m) => m.sid)).toEqual([m1.sid]);
    await alice.callOk("messageservice.mark_all_unread", {});
  });

  test("get does not mark read; another user's message is NotFound", async () => {
    const got = await alice.callOk("messageservice.get_user_message", { message_id: m2.sid });
    expect(got).toEqual(m2);
    expect((await alice.callOk("messageservice.get_user_message", { message_id: m2.sid })).is_read).toBe(false);
    await refusedNoWrite(
      () => alice.call("messageservice.get_user_message", { message_id: foreign.sid }),
      -32003,
      "NotFound",
    );
  });

  test("mark read/unread: updated_count counts changes only; the unread count follows", async () => {
    expect(await alice.callOk("messageservice.get_unread_count", {})).toEqual({ unread_count: 3 });
    expect(await alice.callOk("messageservice.mark_as_read", { message_id: m1.sid })).toEqual({
      message_id: m1.sid,
      is_read: true,
      updated_count: 1,
    });
    expect((await alice.callOk("messageservice.mark_as_read", { message_id: m1.sid })).updated_count).toBe(0);
    expect(await alice.callOk("messageservice.get_unread_count", {})).toEqual({ unread_count: 2 });
    expect(await alice.callOk("messageservice.mark_all_read", {})).toEqual({
      message_id: null,
      is_read: true,
      updated_count: 2,
    });
    expect(await alice.callOk("messageservice.get_unread_count", {})).toEqual({ unread_count: 0 });
    expect((await alice.callOk("messageservice.mark_all_read", {})).updated_count).toBe(0);
    expect(await alice.callOk("messageservice.mark_as_unread", { message_id: m2.sid })).toEqual({
      message_id: m2.sid,
      is_read: false,
      updated_count: 1,
    });
    expect((await alice.callOk("messageservice.mark_as_unread", { message_id: m2.sid })).updated_count).toBe(0);
    expect((await alice.callOk("messageservice.mark_all_unread", {})).updated_count).toBe(2);
    expect(await alice.callOk("messageservice.get_unread_count", {})).toEqual({ unread_count: 3 });
    // Bob's message was never touched by Alice's bulk marks.
    expect((await bob.callOk("messageservice.get_user_message", { message_id: foreign.sid })).is_read).toBe(false);
  });

  test("marks on another user's message are NotFound, nothing changed", async () => {
    for (const method of ["messageservice.mark_as_read", "messageservice.mark_as_unread"] as const) {
      await refusedNoWrite(() => alice.call(method, { message_id: foreign.sid }), -32003, "NotFound");
    }
  });

  test("a user_id naming another user is refused (-32002), nothing written", async () => {
    const other = { user_id: bob.userId };
    await refusedNoWrite(() => alice.call("messageservice.list_user_messages", other), -32002, null);
    await refusedNoWrite(() => alice.call("messageservice.get_unread_count", other), -32002, null);
    await refusedNoWrite(() => alice.call("messageservice.mark_all_read", other), -32002, null);
    await refusedNoWrite(() => alice.call("messageservice.mark_all_unread", other), -32002, null);
    await refusedNoWrite(
      () => alice.call("messageservice.get_user_message", { ...other, message_id: foreign.sid }),
      -32002,
      null,
    );
    await refusedNoWrite(
      () => alice.call("messageservice.mark_as_read", { ...other, message_id: foreign.sid }),
      -32002,
      null,
    );
    await refusedNoWrite(
      () => alice.call("messageservice.delete_message", { ...other, message_id: foreign.sid }),
      -32002,
      null,
    );
  });

  test("delete: the caller's message goes; another user's or a deleted one is NotFound", async () => {
    await refusedNoWrite(
      () => alice.call("messageservice.delete_message", { message_id: foreign.sid }),
      -32003,
      "NotFound",
    );
    const extra = await send(alice, "To delete");
    expect(await alice.callOk("messageservice.delete_message", { message_id: extra.sid })).toEqual({
      sid: extra.sid,
      deleted: true,
    });
    expect(await count(t, "user_message", "sid = ?", [extra.sid])).toBe(0);
    await refusedNoWrite(
      () => alice.call("messageservice.delete_message", { message_id: extra.sid }),
      -32003,
      "NotFound",
    );
  });
});
