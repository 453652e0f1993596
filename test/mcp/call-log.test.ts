import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { McpCallLogEntity } from "../../generated/entities.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey, sql } from "../support/helpers.ts";
import { callRaw, serveMcpWithTools, testTool } from "./support.ts";

let t: TestApp;
let mcp: Awaited<ReturnType<typeof serveMcpWithTools>>;
let alice: Client;
let bob: Client;
let aliceKey: { key: string; keyId: string };
let bobKey: { key: string; keyId: string };

const audits = (action: string) => sql(t, "select * from user_audit_log where action = ?", [action]);

beforeAll(async () => {
  t = await startTestApp();
  mcp = await serveMcpWithTools(t.app.runtime, [testTool("echo", { readOnly: true })]);
});
afterAll(async () => {
  await mcp.close();
  await t.close();
});
beforeEach(async () => {
  await sql(t, "delete from mcp_call_log");
  alice = await t.register(`alice${Math.random()}@example.org`);
  bob = await t.register(`bob${Math.random()}@example.org`);
  aliceKey = await generateKey(alice);
  bobKey = await generateKey(bob);
});

describe("McpCallLog rows", () => {
  test("every call writes a row with a sanitized argument summary: no passwords, keys or card data", async () => {
    await callRaw(mcp.url, aliceKey.key, "freezone_test_echo", {
      echo: "hello",
      password: "hunter2 hunter2",
      card_number: "4111 1111 1111 1111",
      note: aliceKey.key,
    });
    const row = await t.app.runtime.orm.em.fork().findOneOrFail(McpCallLogEntity, { user_id: alice.userId });
    expect(row).toMatchObject({
      user_id: alice.userId,
      api_key_id: aliceKey.keyId,
      result_status: "success",
      amount: 0,
    });
    expect(JSON.parse(row.arguments_summary)).toEqual({
      echo: "hello",
      password: "[redacted]",
      card_number: "[redacted]",
      note: "[redacted]",
    });
    expect(row.arguments_summary).not.toContain("hunter2");
    expect(row.arguments_summary).not.toContain(aliceKey.key);
  });
});

describe("mcpcalllogservice.list", () => {
  test("an owner lists only their own calls, newest first, page by page", async () => {
    for (let i = 0; i < 3; i++) {
      await callRaw(mcp.url, aliceKey.key, "freezone_test_echo", { echo: `a${i}` });
      t.clock.advance(1);
    }
    await callRaw(mcp.url, bobKey.key, "freezone_test_echo", { echo: "b" });
    const first = await alice.rpc("mcpcalllogservice.list", { limit: 2 });
    expect(first.result.items.map((r: any) => JSON.parse(r.arguments_summary).echo)).toEqual(["a2", "a1"]);
    expect(first.result.next_cursor).toEqual(expect.any(String));
    const second = await alice.rpc("mcpcalllogservice.list", { limit: 2, cursor: first.result.next_cursor });
    expect(second.result.items.map((r: any) => JSON.parse(r.arguments_summary).echo)).toEqual(["a0"]);
    expect(second.result.next_cursor).toBeNull();
    // A key reads its owner's log too (through /mcp as well).
    const viaKey = await callRaw(mcp.url, bobKey.key, "freezone_mcpcalllogservice_list", {});
    expect(viaKey.result.structuredContent.items.map((r: any) => r.user_id)).toEqual([bob.userId]);
  });

  test("an unknown cursor is refused with InvalidInput", async () => {
    const r = await alice.rpc("mcpcalllogservice.list", { cursor: "garbage" });
    expect(r.error).toMatchObject({ code: -32006, data: { type: "McpCallLogError", variant: "InvalidInput" } });
    const notATime = Buffer.from(JSON.stringify(["yesterday", "x"])).toString("base64url");
    const other = await alice.rpc("mcpcalllogservice.list", { cursor: notATime });
    expect(other.error).toMatchObject({ data: { type: "McpCallLogError", variant: "InvalidInput" } });
  });

  test("no calls yet is an empty page with no cursor", async () => {
    expect((await alice.rpc("mcpcalllogservice.list", { limit: 5 })).result).toEqual({ items: [], next_cursor: null });
  });
});

describe("mcpcalllogservice.admin_list", () => {
  test("an administrator lists every user's calls, filtered by user or key, audited as view_logs", async () => {
    await callRaw(mcp.url, aliceKey.key, "freezone_test_echo", {});
    await callRaw(mcp.url, bobKey.key, "freezone_test_echo", {});
    const admin = await t.admin();
    const all = await admin.rpc("mcpcalllogservice.admin_list", {});
    expect(all.result.items.map((r: any) => r.user_id).sort()).toEqual([alice.userId, bob.userId].sort());
    const onlyBob = await admin.rpc("mcpcalllogservice.admin_list", { user_id: bob.userId });
    expect(onlyBob.result.items.map((r: any) => r.api_key_id)).toEqual([bobKey.keyId]);
    const byKey = await admin.rpc("mcpcalllogservice.admin_list", { api_key_id: aliceKey.keyId });
    expect(byKey.result.items.map((r: any) => r.user_id)).toEqual([alice.userId]);
    const rows = await audits("view_logs");
    expect(rows.filter((r) => r.subject_id === admin.userId && r.allowed)).toHaveLength(3);
    expect(rows.some((r) => r.target_ref === bob.userId && r.target_type === "user")).toBe(true);
  });

  test("a user (or their key) is refused with AdminOnly, and the refusal is audited", async () => {
    const r = await alice.rpc("mcpcalllogservice.admin_list", {});
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    const viaMcp = await callRaw(mcp.url, aliceKey.key, "freezone_mcpcalllogservice_admin_list", {});
    expect(viaMcp.result.isError).toBe(true);
    expect((await audits("view_logs")).filter((row) => row.subject_id === alice.userId && !row.allowed)).toHaveLength(
      2,
    );
  });
});
