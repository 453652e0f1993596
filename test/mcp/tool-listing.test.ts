import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { createRegistry } from "../../src/app/runtime.ts";
import { generateKey } from "../support/helpers.ts";
import { callRaw, servedMcp, textJson } from "./support.ts";

// Issue 32 item 10: tools/list shows only tools that can succeed for the key. No write tool of a record that is
// read-only through generic CRUD (all of them today), no tool of a record only administrators see, no account
// bootstrap, sign-in or credential tool for any key (x-mcp.agentTool false), generic record reads only where the
// key's patterns ask for them, and structured objects where the wire takes JSON text.
const f = servedMcp();

async function listed(key: string): Promise<Tool[]> {
  const client = await f.connect(key);
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

const CREDENTIAL_TOOLS = [
  "freezone_authservice_register",
  "freezone_authservice_login",
  "freezone_authservice_login_mfa",
  "freezone_authservice_refresh_token",
  "freezone_authservice_request_password_reset",
  "freezone_authservice_reset_password",
  "freezone_authservice_verify_email",
  "freezone_authservice_send_verification_email",
  "freezone_authservice_begin_2fa_recovery",
  "freezone_authservice_poll_2fa_recovery",
  "freezone_apikeyservice_generate",
];

/** The generic record tools' names, from the registry (kind crud). */
const GENERIC = new Set([...createRegistry().values()].filter((e) => e.kind === "crud").map((e) => e.mcp.name));
const isGeneric = (name: string) => GENERIC.has(name);

describe("what a key is shown", () => {
  test("a readwrite key without patterns: domain operations only, no credential tool (543 tools before, 225 now)", async () => {
    const names = (await listed(f.rw.key)).map((t) => t.name);
    expect(names).toHaveLength(225);
    expect(names.filter(isGeneric)).toEqual([]);
    for (const tool of CREDENTIAL_TOOLS) expect(names).not.toContain(tool);
    expect(names).toContain("freezone_authservice_me");
    expect(names).toContain("freezone_creditservice_deduct");
  });

  test("a read key without patterns (311 before, 98 now)", async () => {
    const read = await generateKey(f.owner, { mcp_scope: "read" });
    const tools = await listed(read.key);
    expect(tools).toHaveLength(98);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((t) => t.name).filter(isGeneric)).toEqual([]);
  });

  test("patterns that name generic reads list them, for records the key's owner can see, and never a write", async () => {
    const key = await generateKey(f.owner, { allowed_tool_patterns: "freezone_*_get,freezone_*_list,freezone_*_find" });
    const names = (await listed(key.key)).map((t) => t.name);
    const generic = names.filter(isGeneric);
    // 23 records whose rows their owners see, three reads each; AdminAction's rows only administrators see.
    expect(generic).toHaveLength(69);
    expect(generic).toContain("freezone_apikey_find");
    expect(generic).not.toContain("freezone_adminaction_find");
    expect(generic.filter((n) => /_(set|delete|new)$/.test(n))).toEqual([]);
    // A match-everything pattern asks for nothing in particular.
    const wide = await generateKey(f.owner, { allowed_tool_patterns: "freezone_*" });
    expect((await listed(wide.key)).map((t) => t.name).filter(isGeneric)).toEqual([]);
  });

  test("a record query is a structured object in the tool's schema, and an object works as the argument", async () => {
    const key = await generateKey(f.owner, { allowed_tool_patterns: "freezone_apikey_*" });
    const tools = await listed(key.key);
    expect(tools.map((t) => t.name).sort()).toEqual([
      "freezone_apikey_find",
      "freezone_apikey_get",
      "freezone_apikey_list",
    ]);
    const find = tools.find((t) => t.name === "freezone_apikey_find");
    const properties = (find?.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
    expect(properties["query"]?.type).toBe("object");
    const byObject = await callRaw(f.served.url, key.key, "freezone_apikey_find", { query: { name: "agent key" } });
    expect(byObject.result.isError).toBeFalsy();
    expect(textJson(byObject.result).items.length).toBeGreaterThan(0);
    // The JSON text the wire method takes still passes as it is.
    const byText = await callRaw(f.served.url, key.key, "freezone_apikey_find", { query: '{"name":"agent key"}' });
    expect(textJson(byText.result).items).toEqual(textJson(byObject.result).items);
  });
});

describe("what a key may not call", () => {
  test("a credential tool is refused ScopeDenied on /mcp, and for an agent key on /rpc; a script key is not an agent", async () => {
    const mcp = await callRaw(f.served.url, f.rw.key, "freezone_authservice_login", {
      email: f.owner.email,
      password: "correct horse battery staple 42",
    });
    expect(mcp.result.isError).toBe(true);
    expect(textJson(mcp.result)).toMatchObject({ type: "ApiKeyError", variant: "ScopeDenied" });
    const rpc = await f.t.rpc(
      "authservice.login",
      { email: f.owner.email, password: "correct horse battery staple 42" },
      { "x-api-key": f.rw.key },
    );
    expect(rpc.error).toMatchObject({ code: -32002, data: { variant: "ScopeDenied" } });
    const script = await generateKey(f.owner, { mcp_scope: null });
    const scripted = await f.t.rpc(
      "authservice.login",
      { email: f.owner.email, password: "correct horse battery staple 42" },
      { "x-api-key": script.key },
    );
    expect(scripted.result?.access_token).toEqual(expect.any(String));
  });

  test("a write of a read-only record, unlisted, is refused as before when called by name", async () => {
    const r = await callRaw(f.served.url, f.rw.key, "freezone_apikey_set", { data: { name: "renamed" } });
    expect(r.result.isError).toBe(true);
    expect(textJson(r.result)).toMatchObject({ type: "RecordError", variant: "Forbidden" });
  });
});
