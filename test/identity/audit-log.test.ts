import { beforeEach, describe, expect, test } from "vitest";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";

let t: TestApp;
let admin: Client;
let ada: Client;
let bob: Client;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
});

const row = (changes: Record<string, unknown> = {}) => ({
  subject_id: "someone",
  action: "other",
  target_ref: "ref-1",
  target_type: "other",
  allowed: true,
  context: '{"note":"decided by phone"}',
  ...changes,
});

async function newKey(client: Client) {
  return (await client.rpc("apikeyservice.generate_personal", { name: "k", password: PASSWORD })).result;
}

describe("userauditlogservice.log", () => {
  test("an administrator writes a row, recorded as an AdminAction too", async () => {
    const r = await admin.rpc("userauditlogservice.log", row({ allowed: false }));
    expect(r.result).toEqual({
      sid: expect.any(String),
      ...row({ allowed: false }),
      created_at: t.clock.now().toISOString(),
    });
    expect(await count(t, "user_audit_log")).toBe(1);
    expect(await count(t, "admin_action", "action = 'write_audit_row'")).toBe(1);
  });

  test("a plain user, or an administrator's key, is AdminOnly and writes nothing", async () => {
    const plain = await ada.rpc("userauditlogservice.log", row());
    expect(plain.error).toMatchObject({ code: -32002, data: { type: "UserAuditLogError", variant: "AdminOnly" } });
    const key = (await newKey(admin)).api_key;
    const viaKey = await t.rpc("userauditlogservice.log", row(), { "x-api-key": key });
    expect(viaKey.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect(await count(t, "user_audit_log")).toBe(0);
  });

  test("context that is not a JSON object, or over 16 KiB, is InvalidInput and writes nothing", async () => {
    for (const context of ["not json", "[1,2]", "null", JSON.stringify({ x: "y".repeat(16 * 1024) })]) {
      const r = await admin.rpc("userauditlogservice.log", row({ context }));
      expect(r.error).toMatchObject({ code: -32006, data: { type: "UserAuditLogError", variant: "InvalidInput" } });
    }
    const badAction = await admin.rpc("userauditlogservice.log", row({ action: "delete_everything" }));
    expect(badAction.error?.code).toBe(-32602);
    expect(await count(t, "user_audit_log")).toBe(0);
  });
});

describe("list_for_subject", () => {
  test("a user sees the rows where they are the subject, newest first", async () => {
    const first = await newKey(ada);
    t.clock.advance(1);
    await ada.rpc("apikeyservice.revoke", { key_id: first.key_id, password: PASSWORD });
    t.clock.advance(1);
    await ada.rpc("apikeyservice.rotate", { key_id: first.key_id, password: PASSWORD });
    const r = await ada.rpc("userauditlogservice.list_for_subject", { limit: 0 });
    expect(r.result.items.map((i: { action: string; allowed: boolean }) => [i.action, i.allowed])).toEqual([
      ["rotate_api_key", false],
      ["revoke_api_key", true],
    ]);
    expect(JSON.parse(r.result.items[0].context)).toEqual({
      method: "apikeyservice.rotate",
      via: "session",
      error: "InvalidState",
    });
  });

  test("limit 0 or below means 100, and the limit caps the rows", async () => {
    for (let i = 0; i < 102; i++) {
      await sql(
        t,
        `insert into "user_audit_log" (sid, subject_id, action, target_ref, target_type, allowed, context, created_at, updated_at)
         values (?, ?, 'other', 'x', 'other', true, '{}', now(), now())`,
        [`00000000-0000-7000-8000-${String(i).padStart(12, "0")}`, ada.userId],
      );
    }
    expect((await ada.rpc("userauditlogservice.list_for_subject", { limit: -5 })).result.items).toHaveLength(100);
    expect((await ada.rpc("userauditlogservice.list_for_subject", { limit: 3 })).result.items).toHaveLength(3);
    expect((await ada.rpc("userauditlogservice.list_for_subject", { limit: 1001 })).error?.code).toBe(-32602);
  });

  test("a user naming another subject is refused (-32002); an administrator may, and that read is audited", async () => {
    const key = await newKey(ada);
    await ada.rpc("apikeyservice.revoke", { key_id: key.key_id, password: PASSWORD });
    const other = await bob.rpc("userauditlogservice.list_for_subject", { subject_id: ada.userId, limit: 0 });
    expect(other.error).toMatchObject({ code: -32002, data: { type: "UserAuditLogError", variant: "NotOwner" } });
    const byAdmin = await admin.rpc("userauditlogservice.list_for_subject", { subject_id: ada.userId, limit: 0 });
    expect(byAdmin.result.items).toHaveLength(1);
    const views = await sql(t, `select subject_id, target_ref from "user_audit_log" where action = 'view_logs'`);
    expect(views).toEqual([{ subject_id: admin.userId, target_ref: ada.userId }]);
  });
});

describe("list_for_target", () => {
  test("the owner of a key sees the rows about it; another user gets NotFound; an administrator sees them", async () => {
    const key = await newKey(ada);
    await ada.rpc("apikeyservice.revoke", { key_id: key.key_id, password: PASSWORD });
    t.clock.advance(1);
    await bob.rpc("apikeyservice.revoke", { key_id: key.key_id, password: PASSWORD });
    const mine = await ada.rpc("userauditlogservice.list_for_target", { target_ref: key.key_id, limit: 0 });
    expect(mine.result.items.map((i: { subject_id: string }) => i.subject_id)).toEqual([bob.userId, ada.userId]);
    const theirs = await bob.rpc("userauditlogservice.list_for_target", { target_ref: key.key_id, limit: 0 });
    expect(theirs.error).toMatchObject({ code: -32003, data: { type: "UserAuditLogError", variant: "NotFound" } });
    const byAdmin = await admin.rpc("userauditlogservice.list_for_target", { target_ref: key.key_id, limit: 0 });
    expect(byAdmin.result.items).toHaveLength(2);
  });

  test("a target without rows is an empty list for its owner and NotFound for anyone else", async () => {
    const key = await newKey(ada);
    expect((await ada.rpc("userauditlogservice.list_for_target", { target_ref: key.key_id, limit: 0 })).result).toEqual(
      {
        items: [],
      },
    );
    const other = await bob.rpc("userauditlogservice.list_for_target", { target_ref: key.key_id, limit: 0 });
    expect(other.error).toMatchObject({ code: -32003 });
    const nothing = await bob.rpc("userauditlogservice.list_for_target", { target_ref: "no-such-target", limit: 0 });
    expect(nothing.error).toEqual(other.error);
  });
});

describe("append-only", () => {
  test("audit rows have no generic delete and their set only creates, even for administrators", async () => {
    const written = (await admin.rpc("userauditlogservice.log", row())).result;
    const del = await admin.rpc("userauditlog.delete", { sid: written.sid });
    expect(del.error?.code).toBe(-32601);
    const set = await admin.rpc("userauditlog.set", { data: JSON.stringify({ sid: written.sid, allowed: false }) });
    expect(set.error).toBeDefined();
    expect((await sql(t, `select allowed from "user_audit_log" where sid = ?`, [written.sid]))[0]?.allowed).toBe(true);
  });

  test("the database itself refuses updates and deletes of audit rows and administrator actions", async () => {
    await admin.rpc("userauditlogservice.log", row());
    await expect(sql(t, `update "user_audit_log" set allowed = false`)).rejects.toThrow(/append-only/);
    await expect(sql(t, `delete from "user_audit_log"`)).rejects.toThrow(/append-only/);
    await expect(sql(t, `delete from "admin_action"`)).rejects.toThrow(/append-only/);
    expect(await count(t, "user_audit_log")).toBe(1);
  });
});
