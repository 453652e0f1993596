import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Client as SessionClient, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey } from "../support/helpers.ts";
import { initializeMessage, mcpClient, postMcp, type Served, serveOnPort, textJson } from "./support.ts";

let t: TestApp;
let served: Served;
let owner: SessionClient;
let rw: { key: string; keyId: string };
const clients: Client[] = [];

const rows = async (table: string): Promise<any[]> => t.app.runtime.orm.em.fork().execute(`select * from ${table}`);
const connect = async (key: string, as: "x-api-key" | "bearer" = "x-api-key") => {
  const client = await mcpClient(served.url, key, as);
  clients.push(client);
  return client;
};

beforeAll(async () => {
  t = await startTestApp();
  served = await serveOnPort(t.app.hono);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await served.close();
  await t.close();
});
beforeEach(async () => {
  await t.app.runtime.orm.em.fork().execute("delete from mcp_call_log");
  owner = await t.register(`owner${Math.random()}@example.org`);
  rw = await generateKey(owner, { mcp_scope: "readwrite" });
});

describe("initialize", () => {
  test("initialize with protocolVersion 2024-11-05 answers HTTP 200 with serverInfo and that version", async () => {
    const r = await postMcp(served.url, initializeMessage(7), { "x-api-key": rw.key });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(7);
    expect(r.body.result.protocolVersion).toBe("2024-11-05");
    expect(r.body.result.serverInfo).toEqual({ name: "freezone-registry", version: "1.0.0" });
    expect(r.body.result.capabilities).toEqual({ tools: {} });
  });

  test("the SDK client negotiates the newest version the SDK supports", async () => {
    const client = await connect(rw.key);
    expect(client.getServerVersion()?.name).toBe("freezone-registry");
    const r = await postMcp(served.url, initializeMessage(1, LATEST_PROTOCOL_VERSION), { "x-api-key": rw.key });
    expect(r.body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  test("the key may come as Authorization: Bearer", async () => {
    const client = await connect(rw.key, "bearer");
    expect((await client.listTools()).tools.length).toBeGreaterThan(500);
  });
});

describe("tools/list", () => {
  test("a readwrite key sees every tool: names under 64 characters, object schemas, annotations", async () => {
    const client = await connect(rw.key);
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools).toHaveLength(t.app.runtime.registry.size - countAliases());
    for (const tool of tools) {
      expect(tool.name).toMatch(/^freezone_[a-z0-9_]+$/);
      expect(tool.name.length).toBeLessThanOrEqual(64);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
      expect(typeof tool.annotations?.readOnlyHint).toBe("boolean");
    }
    const approve = tools.find((x) => x.name === "freezone_mcpapprovalservice_approve");
    expect(approve?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(JSON.stringify(approve?.outputSchema)).toContain("pending_approval");
  });

  test("a read key sees only read-only tools", async () => {
    const read = await generateKey(owner, { mcp_scope: "read" });
    const { tools } = await (await connect(read.key)).listTools();
    expect(tools.length).toBeGreaterThan(100);
    expect(tools.every((x) => x.annotations?.readOnlyHint === true)).toBe(true);
  });
});

function countAliases(): number {
  let aliases = 0;
  for (const [name, entry] of t.app.runtime.registry) if (name !== entry.name) aliases++;
  return aliases;
}

describe("tools/call", () => {
  test("a call runs the method as the key's owner: structuredContent plus the same JSON as text", async () => {
    const client = await connect(rw.key);
    const result = await client.callTool({ name: "freezone_mcpapprovalservice_list_pending", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ items: [] });
    expect(textJson(result)).toEqual({ items: [] });
    const log = await rows("mcp_call_log");
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      api_key_id: rw.keyId,
      user_id: owner.userId,
      tool_name: "freezone_mcpapprovalservice_list_pending",
      result_status: "success",
      error_message: "",
    });
  });

  test("a business failure is an isError result with type and variant, no structuredContent", async () => {
    const client = await connect(rw.key);
    const result = await client.callTool({
      name: "freezone_mcpapprovalservice_get",
      arguments: { approval_id: "nope" },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textJson(result)).toEqual({ type: "McpApprovalError", variant: "NotFound", message: "approval not found" });
    expect((await rows("mcp_call_log"))[0]).toMatchObject({
      result_status: "error",
      error_message: "approval not found",
    });
  });

  test("an operation that needs a session is refused to the key as an isError result", async () => {
    const client = await connect(rw.key);
    const result = await client.callTool({
      name: "freezone_mcpapprovalservice_approve",
      arguments: { approval_id: "x" },
    });
    expect(result.isError).toBe(true);
    expect(textJson(result)).toMatchObject({ type: "McpApprovalError", variant: "SessionRequired" });
  });

  test("an unknown tool is JSON-RPC -32602, and logged", async () => {
    const client = await connect(rw.key);
    await expect(client.callTool({ name: "freezone_nothing_here", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    expect((await rows("mcp_call_log"))[0]).toMatchObject({
      tool_name: "freezone_nothing_here",
      result_status: "error",
    });
  });

  test("arguments that fail the schema are JSON-RPC -32602 and nothing runs", async () => {
    const r = await postMcp(
      served.url,
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "freezone_mcpapprovalservice_get", arguments: { approval_id: 5 } },
      },
      { "x-api-key": rw.key },
    );
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(3);
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toContain("/approval_id");
    const unknownParam = await postMcp(
      served.url,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "freezone_mcpapprovalservice_list_pending", arguments: { extra: 1 } },
      },
      { "x-api-key": rw.key },
    );
    expect(unknownParam.body.error.code).toBe(-32602);
    expect((await rows("mcp_call_log")).map((r) => r.result_status)).toEqual(["error", "error"]);
  });

  test("a read key calling a write tool is refused as ScopeDenied and logged rejected", async () => {
    const read = await generateKey(owner, { mcp_scope: "read" });
    const client = await connect(read.key);
    const result = await client.callTool({
      name: "freezone_mcpapprovalservice_reject",
      arguments: { approval_id: "x", reason: "no" },
    });
    expect(result.isError).toBe(true);
    expect(textJson(result)).toMatchObject({ type: "ApiKeyError", variant: "ScopeDenied" });
    expect((await rows("mcp_call_log"))[0]).toMatchObject({ result_status: "rejected", api_key_id: read.keyId });
  });
});
