import type { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createRegistry } from "../../src/app/runtime.ts";
import { CALL_TOOL, DESCRIBE_TOOL, SEARCH_TOOL } from "../../src/mcp/discovery.ts";
import { keyMayCall } from "../../src/mcp/tools.ts";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey, sql, type TestKey } from "../support/helpers.ts";
import { callRaw, mcpClient, postMcp, serveMcpWithTools, testTool, textJson } from "./support.ts";

let t: TestApp;
let mcp: Awaited<ReturnType<typeof serveMcpWithTools>>;
let owner: Client;
const clients: McpClient[] = [];

const ECHO = "freezone_test_echo";
const PAY = "freezone_test_pay";
const META = [SEARCH_TOOL, DESCRIBE_TOOL, CALL_TOOL];

const discoveryKey = (policy: Record<string, unknown> = {}) =>
  generateKey(owner, { mcp_discovery_mode: true, ...policy });
const connect = async (key: TestKey) => {
  const client = await mcpClient(mcp.url, key.key);
  clients.push(client);
  return client;
};
const log = (keyId: string) =>
  sql(t, "select tool_name, result_status, error_message from mcp_call_log where api_key_id = ? order by sid", [keyId]);

/** Every page of a raw tools/list, the names in order. */
async function listedNames(key: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const r = await postMcp(
      mcp.url,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: cursor ? { cursor } : {} },
      { "x-api-key": key },
    );
    names.push(...r.body.result.tools.map((tool: { name: string }) => tool.name));
    cursor = r.body.result.nextCursor;
  } while (cursor);
  return names;
}

beforeAll(async () => {
  t = await startTestApp();
  mcp = await serveMcpWithTools(t.app.runtime, [
    testTool("echo", { readOnly: true }),
    testTool("pay", { amountParam: "amount" }),
  ]);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await mcp.close();
  await t.close();
});
beforeEach(async () => {
  t.clock.set("2026-11-27T10:00:00.000Z");
  owner = await t.register(`owner${Math.random()}@example.org`);
});

describe("the key setting", () => {
  test("generate_personal stores it, list_personal and update_personal show and change it; default false", async () => {
    const plain = await owner.rpc("apikeyservice.generate_personal", {
      name: "plain",
      password: PASSWORD,
      mcp_scope: "read",
    });
    expect(plain.result?.mcp_discovery_mode ?? plain.error).toBe(false);
    const on = await discoveryKey();
    const listed = await owner.rpc("apikeyservice.list_personal", {});
    const byId = new Map(listed.result.items.map((k: any) => [k.key_id, k.mcp_discovery_mode]));
    expect(byId.get(on.keyId)).toBe(true);
    expect(byId.get(plain.result.key_id)).toBe(false);
    const off = await owner.rpc("apikeyservice.update_personal", {
      key_id: on.keyId,
      password: PASSWORD,
      mcp_discovery_mode: false,
    });
    expect(off.result.mcp_discovery_mode).toBe(false);
    const rows = await sql(t, "select mcp_discovery_mode from api_key where sid = ?", [on.keyId]);
    expect(rows).toEqual([{ mcp_discovery_mode: false }]);
  });

  test("a non-boolean value is refused with -32602 and nothing is stored", async () => {
    const r = await owner.rpc("apikeyservice.generate_personal", {
      name: "bad",
      password: PASSWORD,
      mcp_discovery_mode: "yes",
    });
    expect(r.error).toMatchObject({ code: -32602 });
    expect(await sql(t, "select sid from api_key where user_id = ?", [owner.userId])).toEqual([]);
  });
});

describe("tools/list", () => {
  test("in discovery mode it answers exactly the three meta-tools (SDK client)", async () => {
    const client = await connect(await discoveryKey());
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(META);
    expect(listed.nextCursor).toBeUndefined();
  });

  test("a key without the setting lists the catalogue as before, and flipping the setting flips the list", async () => {
    const key = await generateKey(owner, { allowed_tool_patterns: "freezone_test_*,freezone_invoiceservice_*" });
    const before = await listedNames(key.key);
    const invoiceTools = [
      "freezone_invoiceservice_list",
      "freezone_invoiceservice_create",
      "freezone_invoiceservice_get",
      "freezone_invoiceservice_update",
      "freezone_invoiceservice_delete",
      "freezone_invoiceservice_preview_invoice_email",
      "freezone_invoiceservice_send_draft",
      "freezone_invoiceservice_send_invoice",
      "freezone_invoiceservice_mark_paid",
      "freezone_invoiceservice_cancel_invoice",
      "freezone_invoiceservice_get_payment_defaults",
      "freezone_invoiceservice_set_payment_default",
      "freezone_invoiceservice_delete_payment_default",
    ];
    expect(before).toEqual([...invoiceTools, ECHO, PAY]);
    await owner.rpc("apikeyservice.update_personal", {
      key_id: key.keyId,
      password: PASSWORD,
      mcp_discovery_mode: true,
    });
    expect(await listedNames(key.key)).toEqual(META);
    await owner.rpc("apikeyservice.update_personal", {
      key_id: key.keyId,
      password: PASSWORD,
      mcp_discovery_mode: false,
    });
    expect(await listedNames(key.key)).toEqual(before);
  });

  test("a full catalogue key lists every key-callable tool and no meta-tool", async () => {
    const names = await listedNames((await generateKey(owner)).key);
    // Every method any key may call (the registry's, aliases once) plus the file's two test tools.
    const callable = new Set(
      [...createRegistry().values()].filter((e) => keyMayCall(e) && e.mcp.listing === "always").map((e) => e.mcp.name),
    );
    expect(names).toHaveLength(callable.size + 2);
    for (const meta of META) expect(names).not.toContain(meta);
  });

  test("a cursor in discovery mode is refused (none was handed out)", async () => {
    const key = await discoveryKey();
    const r = await postMcp(
      mcp.url,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "WyIwIl0" } },
      { "x-api-key": key.key },
    );
    expect(r.body.error).toMatchObject({ code: -32602 });
  });

  test("a malformed or foreign cursor on the full catalogue is -32602, not an internal error (issue 29 item 11)", async () => {
    const key = await generateKey(owner);
    const foreign = Buffer.from(JSON.stringify(["x", "y"])).toString("base64url");
    for (const cursor of ["%%%not-base64", "bm90IGpzb24", foreign, Buffer.from('["-5"]').toString("base64url")]) {
      const r = await postMcp(
        mcp.url,
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor } },
        { "x-api-key": key.key },
      );
      expect(r.body.error, cursor).toMatchObject({ code: -32602 });
    }
  });

  test("without discovery mode a meta-tool name is an unknown tool, as before", async () => {
    const key = await generateKey(owner);
    const r = await callRaw(mcp.url, key.key, SEARCH_TOOL, { query: "invoice" });
    expect(r.error).toMatchObject({ code: -32602, message: `Invalid params: unknown tool ${SEARCH_TOOL}` });
    expect(await log(key.keyId)).toEqual([
      { tool_name: SEARCH_TOOL, result_status: "error", error_message: "unknown tool" },
    ]);
  });
});

describe("freezone_search_tools", () => {
  test("ranks the catalogue: the best match first, compact entries, limit kept; writes no log row", async () => {
    const key = await discoveryKey();
    const client = await connect(key);
    const r = await client.callTool({ name: SEARCH_TOOL, arguments: { query: "appoint a new director", limit: 3 } });
    const results = (r.structuredContent as any).results;
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      name: "freezone_governanceservice_appoint_director",
      title: "Appoint a director",
      summary: expect.any(String),
      read_only: false,
      score: expect.any(Number),
    });
    expect(results[0].score).toBeGreaterThan(results[1].score);
    expect(await log(key.keyId)).toEqual([]);
  });

  test("searches only the tools this key may call: allowed patterns and read scope filter the results", async () => {
    const invoices = await discoveryKey({ allowed_tool_patterns: "freezone_invoiceservice_*" });
    const r = await callRaw(mcp.url, invoices.key, SEARCH_TOOL, { query: "appoint a director to a company" });
    const names: string[] = r.result.structuredContent.results.map((h: any) => h.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.startsWith("freezone_invoiceservice_"))).toBe(true);
    const reader = await discoveryKey({ mcp_scope: "read" });
    const read = await callRaw(mcp.url, reader.key, SEARCH_TOOL, { query: "create an invoice", limit: 50 });
    const hits = read.result.structuredContent.results;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h: any) => h.read_only === true)).toBe(true);
    expect(hits.map((h: any) => h.name)).not.toContain("freezone_invoiceservice_create");
  });

  test("never returns tools no key may call (administrator methods)", async () => {
    const key = await discoveryKey();
    const r = await callRaw(mcp.url, key.key, SEARCH_TOOL, { query: "suspend a user account", limit: 50 });
    const names = r.result.structuredContent.results.map((h: any) => h.name);
    expect(names).not.toContain("freezone_adminservice_suspend_user");
  });

  test("bad arguments are -32602: no query, a limit out of range, an unknown property", async () => {
    const key = await discoveryKey();
    for (const args of [{}, { query: "x", limit: 0 }, { query: "x", limit: 51 }, { query: "x", extra: 1 }]) {
      const r = await callRaw(mcp.url, key.key, SEARCH_TOOL, args);
      expect(r.error, JSON.stringify(args)).toMatchObject({ code: -32602 });
    }
  });
});

describe("freezone_describe_tool", () => {
  test("answers the full entry of a tool the key may call, as tools/list would list it", async () => {
    const key = await discoveryKey();
    const client = await connect(key);
    const r = await client.callTool({ name: DESCRIBE_TOOL, arguments: { name: "freezone_invoiceservice_mark_paid" } });
    const listed = await postMcp(
      mcp.url,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { "x-api-key": (await generateKey(owner, { allowed_tool_patterns: "freezone_invoiceservice_mark_paid" })).key },
    );
    expect(r.structuredContent).toEqual(listed.body.result.tools[0]);
    expect(Object.keys(r.structuredContent as object)).toEqual(
      expect.arrayContaining(["name", "title", "description", "inputSchema", "outputSchema", "annotations"]),
    );
  });

  test("a tool the key may not call is refused exactly as a direct call of it is", async () => {
    const key = await discoveryKey({ blocked_tool_patterns: "freezone_test_pay" });
    const described = await callRaw(mcp.url, key.key, DESCRIBE_TOOL, { name: PAY });
    const direct = await callRaw(mcp.url, key.key, PAY, { amount: 1 });
    expect(described.result.isError).toBe(true);
    expect(described.result).toEqual(direct.result);
    expect(textJson(described.result)).toMatchObject({ type: "ApiKeyError", variant: "ScopeDenied" });
  });

  test("an unknown tool, or one no key may call, is -32602 unknown tool", async () => {
    const key = await discoveryKey();
    for (const name of ["freezone_no_such_tool", "freezone_adminservice_suspend_user"]) {
      const r = await callRaw(mcp.url, key.key, DESCRIBE_TOOL, { name });
      expect(r.error).toMatchObject({ code: -32602, message: `Invalid params: unknown tool ${name}` });
    }
    const direct = await callRaw(mcp.url, key.key, "freezone_no_such_tool", {});
    expect(direct.error).toMatchObject({ code: -32602, message: "Invalid params: unknown tool freezone_no_such_tool" });
  });
});

describe("freezone_call_tool", () => {
  test("runs the tool as the key's owner; the call log names the real tool (SDK client)", async () => {
    const key = await discoveryKey();
    const client = await connect(key);
    const r = await client.callTool({ name: CALL_TOOL, arguments: { name: ECHO, arguments: { echo: "hi" } } });
    expect(r.structuredContent).toEqual({ user_id: owner.userId, api_key_id: key.keyId, echo: "hi", amount: null });
    expect(await log(key.keyId)).toEqual([{ tool_name: ECHO, result_status: "success", error_message: "" }]);
  });

  test("a refused tool is refused as a direct call is, with the same rejected log row", async () => {
    const key = await discoveryKey({ blocked_tool_patterns: "freezone_test_pay" });
    const via = await callRaw(mcp.url, key.key, CALL_TOOL, { name: PAY, arguments: { amount: 1 } });
    const direct = await callRaw(mcp.url, key.key, PAY, { amount: 1 });
    expect(via.result).toEqual(direct.result);
    expect(textJson(via.result)).toMatchObject({ type: "ApiKeyError", variant: "ScopeDenied" });
    const rows = await log(key.keyId);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(rows[1]);
    expect(rows[0]).toMatchObject({ tool_name: PAY, result_status: "rejected" });
  });

  test("an approval-required pattern yields the pending approval of the real tool", async () => {
    const key = await discoveryKey({ approval_required_tools: "freezone_test_p*" });
    const r = await callRaw(mcp.url, key.key, CALL_TOOL, { name: PAY, arguments: { amount: 5, echo: "x" } });
    expect(r.result.structuredContent).toMatchObject({ status: "pending_approval", approval_id: expect.any(String) });
    const rows = await sql(t, "select tool_name, rpc_method, status from mcp_approval where api_key_id = ?", [
      key.keyId,
    ]);
    expect(rows).toEqual([{ tool_name: PAY, rpc_method: "testservice.pay", status: "pending" }]);
    const approvalId = r.result.structuredContent.approval_id;
    const approved = await owner.rpc("mcpapprovalservice.approve", { approval_id: approvalId });
    expect(approved.result).toMatchObject({ status: "approved_executed", execution_error: null });
    expect(JSON.parse(approved.result.result_json)).toMatchObject({ api_key_id: key.keyId, echo: "x", amount: 5 });
    const logged = await sql(t, "select tool_name, approval_id from mcp_call_log where api_key_id = ? order by sid", [
      key.keyId,
    ]);
    expect(logged).toEqual([
      { tool_name: PAY, approval_id: approvalId },
      { tool_name: PAY, approval_id: approvalId },
    ]);
  });

  test("limits count the real calls only: search and describe are free, the third call is over 2 an hour", async () => {
    const key = await discoveryKey({ max_calls_per_hour: 2 });
    await callRaw(mcp.url, key.key, SEARCH_TOOL, { query: "echo" });
    await callRaw(mcp.url, key.key, DESCRIBE_TOOL, { name: ECHO });
    expect((await callRaw(mcp.url, key.key, CALL_TOOL, { name: ECHO, arguments: {} })).result.isError).toBeFalsy();
    expect((await callRaw(mcp.url, key.key, ECHO, {})).result.isError).toBeFalsy();
    const third = await callRaw(mcp.url, key.key, CALL_TOOL, { name: ECHO, arguments: {} });
    expect(textJson(third.result)).toMatchObject({ type: "ApiKeyError", variant: "CallLimit" });
    expect((await log(key.keyId)).map((r) => r.result_status)).toEqual(["success", "success", "rejected"]);
  });

  test("arguments are checked as a direct call checks them; a meta-tool cannot be called through it", async () => {
    const key = await discoveryKey();
    const bad = await callRaw(mcp.url, key.key, CALL_TOOL, { name: ECHO, arguments: { nope: 1 } });
    const direct = await callRaw(mcp.url, key.key, ECHO, { nope: 1 });
    expect(bad.error).toMatchObject({ code: -32602 });
    expect(bad.error).toEqual(direct.error);
    const nested = await callRaw(mcp.url, key.key, CALL_TOOL, { name: CALL_TOOL, arguments: { name: ECHO } });
    expect(nested.error).toMatchObject({ code: -32602, message: `Invalid params: unknown tool ${CALL_TOOL}` });
    const noName = await callRaw(mcp.url, key.key, CALL_TOOL, { arguments: {} });
    expect(noName.error).toMatchObject({ code: -32602 });
  });

  test("a direct tools/call by name still works in discovery mode", async () => {
    const key = await discoveryKey();
    const r = await callRaw(mcp.url, key.key, ECHO, { echo: "direct" });
    expect(r.result.structuredContent).toMatchObject({ echo: "direct", api_key_id: key.keyId });
  });
});
