import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRegistry } from "../../src/app/runtime.ts";
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
