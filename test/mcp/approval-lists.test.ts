import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey } from "../support/helpers.ts";
import { callRaw, serveMcpWithTools, testTool } from "./support.ts";

let t: TestApp;
let mcp: Awaited<ReturnType<typeof serveMcpWithTools>>;
let owner: Client;
let key: { key: string; keyId: string };

/** Asks for `n` payments over the threshold, one second apart; their approval ids, oldest first. */
async function ask(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const reply = await callRaw(mcp.url, key.key, "freezone_test_pay", { amount: 80, echo: `p${i}` });
    ids.push(reply.result.structuredContent.approval_id);
    t.clock.advance(1);
  }
  return ids;
}

const sids = (reply: { result: { items: { sid: string }[] } }) => reply.result.items.map((i) => i.sid);

beforeAll(async () => {
  t = await startTestApp({ accessTokenTtlS: 7 * 24 * 3600 });
  mcp = await serveMcpWithTools(t.app.runtime, [testTool("pay", { amountParam: "amount" })]);
});
afterAll(async () => {
  await mcp.close();
  await t.close();
});
beforeEach(async () => {
  t.clock.set("2026-11-23T10:00:00.000Z");
  owner = await t.register(`owner${Math.random()}@example.org`);
  key = await generateKey(owner, { approval_threshold: 50, max_calls_per_hour: 0, max_calls_per_day: 0 });
});

describe("mcpapprovalservice.list_pending", () => {
  test("pages by cursor, newest first, until next_cursor is null", async () => {
    const ids = await ask(5);
    const first = await owner.rpc("mcpapprovalservice.list_pending", { limit: 2 });
    expect(sids(first)).toEqual([ids[4], ids[3]]);
    const second = await owner.rpc("mcpapprovalservice.list_pending", { limit: 2, cursor: first.result.next_cursor });
    expect(sids(second)).toEqual([ids[2], ids[1]]);
    const third = await owner.rpc("mcpapprovalservice.list_pending", { limit: 2, cursor: second.result.next_cursor });
    expect(sids(third)).toEqual([ids[0]]);
    expect(third.result.next_cursor).toBeNull();
    // Without a limit: the default page (50) holds them all.
    const all = await owner.rpc("mcpapprovalservice.list_pending", {});
    expect(all.result).toMatchObject({ next_cursor: null });
    expect(sids(all)).toEqual([...ids].reverse());
  });

  test("an empty queue is an empty page with no cursor", async () => {
    const r = await owner.rpc("mcpapprovalservice.list_pending", { limit: 1 });
    expect(r.result).toEqual({ items: [], next_cursor: null });
  });

  test("a cursor this server did not make is refused with InvalidInput", async () => {
    for (const cursor of ["garbage", Buffer.from(JSON.stringify(["not a time", "x"])).toString("base64url")]) {
      const r = await owner.rpc("mcpapprovalservice.list_pending", { cursor });
      expect(r.error).toMatchObject({ code: -32006, data: { type: "McpApprovalError", variant: "InvalidInput" } });
    }
  });

  test("a limit over 100 is refused by the schema", async () => {
    const r = await owner.rpc("mcpapprovalservice.list_pending", { limit: 101 });
    expect(r.error).toMatchObject({ code: -32602 });
  });
});

describe("mcpapprovalservice.admin_list", () => {
  test("pages by cursor with the filters kept from page to page", async () => {
    const ids = await ask(3);
    const admin = await t.admin();
    const params = { user_id: owner.userId, status: "pending" as const, limit: 2 };
    const first = await admin.rpc("mcpapprovalservice.admin_list", params);
    expect(sids(first)).toEqual([ids[2], ids[1]]);
    const second = await admin.rpc("mcpapprovalservice.admin_list", { ...params, cursor: first.result.next_cursor });
    expect(sids(second)).toEqual([ids[0]]);
    expect(second.result.next_cursor).toBeNull();
    const bad = await admin.rpc("mcpapprovalservice.admin_list", { ...params, cursor: "garbage" });
    expect(bad.error).toMatchObject({ data: { type: "McpApprovalError", variant: "InvalidInput" } });
    const none = await admin.rpc("mcpapprovalservice.admin_list", { user_id: "nobody", limit: 5 });
    expect(none.result).toEqual({ items: [], next_cursor: null });
  });
});
