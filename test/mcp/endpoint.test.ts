import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { generateKey } from "../support/helpers.ts";
import { initializeMessage, postMcp, servedMcp, textJson } from "./support.ts";

const f = servedMcp();

describe("initialize", () => {
  test("initialize with protocolVersion 2024-11-05 answers HTTP 200 with serverInfo and that version", async () => {
    const r = await postMcp(f.served.url, initializeMessage(7), { "x-api-key": f.rw.key });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(7);
    expect(r.body.result.protocolVersion).toBe("2024-11-05");
    expect(r.body.result.serverInfo).toEqual({ name: "freezone-registry", version: "1.0.0" });
    expect(r.body.result.capabilities).toEqual({ tools: {} });
  });

  test("the SDK client negotiates the newest version the SDK supports", async () => {
    const client = await f.connect(f.rw.key);
    expect(client.getServerVersion()?.name).toBe("freezone-registry");
    const r = await postMcp(f.served.url, initializeMessage(1, LATEST_PROTOCOL_VERSION), { "x-api-key": f.rw.key });
    expect(r.body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  test("the key may come as Authorization: Bearer", async () => {
    const client = await f.connect(f.rw.key, "bearer");
    expect((await client.listTools()).tools.length).toBeGreaterThan(500);
  });
});

describe("tools/list", () => {
  test("a readwrite key sees every tool: names under 64 characters, object schemas, annotations", async () => {
    const client = await f.connect(f.rw.key);
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools).toHaveLength(f.t.app.runtime.registry.size - countAliases());
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
    const read = await generateKey(f.owner, { mcp_scope: "read" });
    const { tools } = await (await f.connect(read.key)).listTools();
    expect(tools.length).toBeGreaterThan(100);
    expect(tools.every((x) => x.annotations?.readOnlyHint === true)).toBe(true);
  });
});

function countAliases(): number {
  let aliases = 0;
  for (const [name, entry] of f.t.app.runtime.registry) if (name !== entry.name) aliases++;
  return aliases;
}

describe("tools/call", () => {
  test("a call runs the method as the key's owner: structuredContent plus the same JSON as text", async () => {
    const client = await f.connect(f.rw.key);
    const result = await client.callTool({ name: "freezone_mcpapprovalservice_list_pending", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ items: [], next_cursor: null });
    expect(textJson(result)).toEqual({ items: [], next_cursor: null });
    const log = await f.callLog();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      api_key_id: f.rw.keyId,
      user_id: f.owner.userId,
      tool_name: "freezone_mcpapprovalservice_list_pending",
      result_status: "success",
      error_message: "",
    });
  });

  test("a business failure is an isError result with type and variant, no structuredContent", async () => {
    const client = await f.connect(f.rw.key);
    const result = await client.callTool({
      name: "freezone_mcpapprovalservice_get",
      arguments: { approval_id: "nope" },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textJson(result)).toEqual({ type: "McpApprovalError", variant: "NotFound", message: "approval not found" });
    expect((await f.callLog())[0]).toMatchObject({
      result_status: "error",
      error_message: "approval not found",
    });
  });

  test("an operation that needs a session is refused to the key as an isError result", async () => {
    const client = await f.connect(f.rw.key);
    const result = await client.callTool({
      name: "freezone_mcpapprovalservice_approve",
      arguments: { approval_id: "x" },
    });
    expect(result.isError).toBe(true);
    expect(textJson(result)).toMatchObject({ type: "McpApprovalError", variant: "SessionRequired" });
  });

  test("an unknown tool is JSON-RPC -32602, and logged", async () => {
    const client = await f.connect(f.rw.key);
    await expect(client.callTool({ name: "freezone_nothing_here", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    expect((await f.callLog())[0]).toMatchObject({
      tool_name: "freezone_nothing_here",
      result_status: "error",
    });
  });

  test("arguments that fail the schema are JSON-RPC -32602 and nothing runs", async () => {
    const r = await postMcp(
      f.served.url,
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "freezone_mcpapprovalservice_get", arguments: { approval_id: 5 } },
      },
      { "x-api-key": f.rw.key },
    );
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(3);
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toContain("/approval_id");
    const unknownParam = await postMcp(
      f.served.url,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "freezone_mcpapprovalservice_list_pending", arguments: { extra: 1 } },
      },
      { "x-api-key": f.rw.key },
    );
    expect(unknownParam.body.error.code).toBe(-32602);
    expect((await f.callLog()).map((r) => r.result_status)).toEqual(["error", "error"]);
  });

  test("a read key calling a write tool is refused as ScopeDenied and logged rejected", async () => {
    const read = await generateKey(f.owner, { mcp_scope: "read" });
    const client = await f.connect(read.key);
    const result = await client.callTool({
      name: "freezone_mcpapprovalservice_reject",
      arguments: { approval_id: "x", reason: "no" },
    });
    expect(result.isError).toBe(true);
    expect(textJson(result)).toMatchObject({ type: "ApiKeyError", variant: "ScopeDenied" });
    expect((await f.callLog())[0]).toMatchObject({ result_status: "rejected", api_key_id: read.keyId });
  });
});
