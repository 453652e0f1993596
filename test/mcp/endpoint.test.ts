import type { Tool } from "@modelcontextprotocol/sdk/types.js";
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
    expect(r.body.result.capabilities).toEqual({ tools: {}, resources: {}, prompts: {} });
  });

  test("the SDK client negotiates the newest version the SDK supports", async () => {
    const client = await f.connect(f.rw.key);
    expect(client.getServerVersion()?.name).toBe("freezone-registry");
    const r = await postMcp(f.served.url, initializeMessage(1, LATEST_PROTOCOL_VERSION), { "x-api-key": f.rw.key });
    expect(r.body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  test("the key may come as Authorization: Bearer", async () => {
    const client = await f.connect(f.rw.key, "bearer");
    expect((await client.listTools()).tools.length).toBeGreaterThan(50);
  });
});

/** Every page of tools/list for a key (MCP pagination), with each page's size on the wire. */
async function listAllPages(key: string) {
  const client = await f.connect(key);
  const pages: { tools: Tool[]; bytes: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    pages.push({ tools: page.tools, bytes: JSON.stringify(page).length });
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

/**
 * The tool names a key with this policy is shown, from the registry itself: what it may call, less the tools no
 * agent key may call and the generic record tools (listed only when patterns ask: test/mcp/tool-listing.test.ts).
 */
function callableNames(scope: "read" | "readwrite", allowed: RegExp | null = null, blocked: RegExp | null = null) {
  const names = new Set<string>();
  for (const [name, entry] of f.t.app.runtime.registry) {
    if (name !== entry.name || entry.internal || ["admin", "session", "webhook"].includes(entry.auth)) continue;
    if (!entry.mcp.agentTool || entry.kind === "crud") continue;
    if (scope === "read" && !entry.mcp.readOnly) continue;
    if (blocked?.test(entry.mcp.name) || (allowed && !allowed.test(entry.mcp.name))) continue;
    names.add(entry.mcp.name);
  }
  return names;
}

describe("tools/list fitted to the key", () => {
  test("a readwrite key lists exactly what it can call, in pages under 300 KB that together are complete", async () => {
    const pages = await listAllPages(f.rw.key);
    for (const page of pages) expect(page.bytes).toBeLessThan(300 * 1024);
    const tools = pages.flatMap((p) => p.tools);
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(names)).toEqual(callableNames("readwrite"));
    expect(names).not.toContain("freezone_adminservice_suspend_user");
    expect(names).not.toContain("freezone_mcpapprovalservice_approve");
    for (const tool of tools) {
      expect(tool.name).toMatch(/^freezone_[a-z0-9_]+$/);
      expect(tool.name.length).toBeLessThanOrEqual(64);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
      expect(typeof tool.annotations?.readOnlyHint).toBe("boolean");
    }
    const list = tools.find((x) => x.name === "freezone_mcpapprovalservice_list_pending");
    expect(JSON.stringify(list?.outputSchema)).toContain("pending_approval");
  });

  test("a read key lists exactly the read-only tools it can call", async () => {
    const read = await generateKey(f.owner, { mcp_scope: "read" });
    const pages = await listAllPages(read.key);
    const tools = pages.flatMap((p) => p.tools);
    expect(tools.every((x) => x.annotations?.readOnlyHint === true)).toBe(true);
    expect(new Set(tools.map((t) => t.name))).toEqual(callableNames("read"));
  });

  test("a key with allowed and blocked patterns lists only the tools its patterns let through", async () => {
    const key = await generateKey(f.owner, {
      mcp_scope: "readwrite",
      allowed_tool_patterns: "freezone_pricingservice_*,freezone_invoiceservice_*",
      blocked_tool_patterns: "freezone_pricingservice_get_all_*",
    });
    const pages = await listAllPages(key.key);
    expect(pages).toHaveLength(1);
    const names = new Set(pages[0]?.tools.map((t) => t.name));
    expect(names).toEqual(
      callableNames("readwrite", /^freezone_(pricingservice|invoiceservice)_/, /^freezone_pricingservice_get_all_/),
    );
    expect(names.size).toBeGreaterThan(3);
  });

  test("caller-bound params are optional in input schemas and say the server fills them", async () => {
    const tools = (await listAllPages(f.rw.key)).flatMap((p) => p.tools);
    const me = tools.find((t) => t.name === "freezone_userauditlogservice_list_for_subject");
    const schema = me?.inputSchema as { required?: string[]; properties: Record<string, { description?: string }> };
    expect(schema.required ?? []).not.toContain("subject_id");
    expect(schema.properties["subject_id"]?.description).toMatch(/^You, when omitted/);
  });

  test("a cursor this server did not make is -32602", async () => {
    const client = await f.connect(f.rw.key);
    await expect(client.listTools({ cursor: "not-a-cursor" })).rejects.toThrow(/-32602|cursor/);
  });
});

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
