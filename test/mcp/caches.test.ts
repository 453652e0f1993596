import type { JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRegistry } from "../../src/app/runtime.ts";
import { authenticateMcp, mcpAuthInfo } from "../../src/mcp/auth.ts";
import { callDirectly, isPlainToolCall } from "../../src/mcp/direct-call.ts";
import { globMatch, type KeyPolicy } from "../../src/mcp/policy.ts";
import { ToolCatalog } from "../../src/mcp/tools.ts";
import type { Entry } from "../../src/rpc/dispatcher.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { generateKey } from "../support/helpers.ts";
import { LazySchemaValidator, serveMcpWithTools, testTool } from "./support.ts";

const policy = (scope: "read" | "readwrite", allowed: string[] = []) =>
  ({ scope, allowedPatterns: allowed, blockedPatterns: [] }) as unknown as KeyPolicy;

/** Every tool name a catalog lists for a policy, following the cursors. */
function allNames(catalog: ToolCatalog, p: KeyPolicy): string[] {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = catalog.list(p, cursor);
    if (!page) throw new Error("no page");
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor);
  return names;
}

describe("tools/list pages made once per process", () => {
  test("two apps on the generated registry answer the same page objects, serialized once", () => {
    const a = new ToolCatalog(createRegistry());
    const b = new ToolCatalog(createRegistry());
    const page = a.list(policy("readwrite"), undefined);
    expect(page).not.toBeNull();
    expect(b.list(policy("readwrite"), undefined)).toBe(page);
    expect(b.pageJson(page as object)).toBe(JSON.stringify(page));
    expect(a.list(policy("read"), undefined)).not.toBe(page);
  });

  test("a catalog with extra tools lists them; the shared one does not", () => {
    const extra = new ToolCatalog(createRegistry(), [testTool("cached_extra", { readOnly: true })]);
    const shared = new ToolCatalog(createRegistry());
    expect(allNames(extra, policy("read"))).toContain("freezone_test_cached_extra");
    expect(allNames(shared, policy("read"))).not.toContain("freezone_test_cached_extra");
  });

  test("a registry whose tools differ gets its own pages", () => {
    const registry = createRegistry();
    const [name, entry] = [...registry].find(([, e]) => e.mcp.readOnly && e.auth === "user") as [string, Entry];
    const changed = new Map(registry);
    changed.set(name, { ...entry, mcp: { ...entry.mcp, readOnly: false } });
    const shared = allNames(new ToolCatalog(createRegistry()), policy("read"));
    const own = allNames(new ToolCatalog(changed), policy("read"));
    expect(shared).toContain(entry.mcp.name);
    expect(own).not.toContain(entry.mcp.name);
    expect(allNames(new ToolCatalog(createRegistry()), policy("read"))).toEqual(shared);
  });
});

describe("compiled globs", () => {
  test("a glob answers the same on every use, also after the cache of compiled globs was emptied", () => {
    for (let round = 0; round < 2; round++) {
      expect(globMatch("freezone_credit*", "freezone_creditservice_deduct")).toBe(true);
      expect(globMatch("freezone_credit*", "freezone_pricingservice_get")).toBe(false);
    }
    for (let i = 0; i < 1100; i++) expect(globMatch(`tool_${i}_?`, `tool_${i}_x`)).toBe(true);
    expect(globMatch("freezone_credit*", "freezone_pricingservice_get")).toBe(false);
    expect(globMatch("freezone.x", "freezone_x")).toBe(false);
  });
});

describe("the test clients' output-schema validators", () => {
  test("compile on first use, once per schema text, and still refuse what the schema refuses", () => {
    const validators = new LazySchemaValidator();
    const schema = { type: "object" as const, required: ["a"], properties: { a: { type: "integer" } } };
    const first = validators.getValidator(schema);
    const second = validators.getValidator({ ...schema });
    expect(validators.size).toBe(0);
    expect(first({ a: 1 }).valid).toBe(true);
    expect(second({}).valid).toBe(false);
    expect(second({ a: "x" }).errorMessage).toMatch(/integer/);
    expect(validators.size).toBe(1);
  });
});

describe("tool results serialized once", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  test.each([
    ["direct", true],
    ["public", false],
  ])("a tools/call answer (%s path) is exactly the JSON of the SDK's answer", async (_label, direct) => {
    const mcp = await serveMcpWithTools(t.app.runtime, [testTool("serialized")], { direct });
    try {
      const owner = await t.register(`serialized-${direct}@example.org`);
      const key = await generateKey(owner, { mcp_scope: "readwrite" });
      const echo = 'quotes " and \\ backslash, \u2028 line separator, é, 😀, </script>';
      const id = "call-1";
      const res = await fetch(`${mcp.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "x-api-key": key.key },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "freezone_test_serialized", arguments: { echo } },
        }),
      });
      const text = await res.text();
      const value = { user_id: owner.userId, api_key_id: key.keyId, echo, amount: null };
      const result = { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
      expect(JSON.parse(text)).toEqual({ result, jsonrpc: "2.0", id });
      if (direct) expect(text).toBe(JSON.stringify({ result, jsonrpc: "2.0", id }));
    } finally {
      await mcp.close();
    }
  });
});

describe("plain tools/call without the SDK's Protocol", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  test("answers exactly what the SDK's Protocol answers: results, isError results, thrown errors, timeouts", async () => {
    const mcp = await serveMcpWithTools(t.app.runtime, [testTool("same", { readOnly: true })]);
    try {
      const owner = await t.register(`same-${Math.random()}@example.org`);
      const key = await generateKey(owner, { mcp_scope: "readwrite", max_calls_per_hour: 0, max_calls_per_day: 0 });
      const found = await authenticateMcp(
        t.app.runtime.orm.em,
        (h) => (h === "x-api-key" ? key.key : null),
        new Date(),
      );
      if (!("caller" in found)) throw new Error("the key did not authenticate");
      const request = { requestId: "r1", ip: "127.0.0.1", userAgent: null, rawBody: "", headers: {} };
      const auth = { caller: found.caller, request };
      const { host } = mcp.endpoint;
      const call = (id: number | string, name: string, args?: unknown) =>
        ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }) as JSONRPCRequest;
      const cases = [
        call(1, "freezone_test_same", { echo: "a" }),
        call("two", "freezone_test_same", { fail: true }),
        call(3, "freezone_test_nope", {}),
        call(4, "freezone_test_same", { unknown_param: 1 }),
        call(5, "freezone_pricingservice_get_shareholder_fee_rate", {
          company_type: "single_fzc",
          shareholder_count: 1,
        }),
        call(6, "freezone_test_same", { delay_ms: 300 }),
      ];
      for (const message of cases) {
        expect(isPlainToolCall(message)).toBe(true);
        const options = { deadlineMs: 150 };
        const sdk = await host.transport.request(message, { authInfo: mcpAuthInfo(auth) }, options);
        const direct = await callDirectly(host.handlers, message, auth, options);
        expect(JSON.stringify(direct)).toBe(JSON.stringify(sdk));
      }
      // The timed-out calls finish in the background; let them log before the endpoint closes.
      await new Promise((resolve) => setTimeout(resolve, 400));
    } finally {
      await mcp.close();
    }
  });

  test("a tools/call with _meta, a task or an own __proto__ argument takes the SDK's path", () => {
    const call = (params: Record<string, unknown>) =>
      ({ jsonrpc: "2.0", id: 1, method: "tools/call", params }) as JSONRPCRequest;
    expect(isPlainToolCall(call({ name: "x" }))).toBe(true);
    expect(isPlainToolCall(call({ name: "x", _meta: { progressToken: 1 } }))).toBe(false);
    expect(isPlainToolCall(call({ name: "x", task: { ttl: 1000 } }))).toBe(false);
    expect(isPlainToolCall(call({ name: "x", arguments: JSON.parse('{"__proto__":{"a":1}}') }))).toBe(false);
    expect(isPlainToolCall({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } as JSONRPCRequest)).toBe(false);
  });
});
