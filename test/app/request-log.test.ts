import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { App } from "../../src/app/create-app.ts";
import { PASSWORD, startLoggedApp } from "../support/app.ts";

/**
 * Issue 31 item 10: every request on every endpoint gets one line (method or tool, caller kind, duration, outcome,
 * request id), and X-Request-Id is accepted and echoed.
 */
let app: App;
let lines: string[];
beforeAll(async () => {
  ({ app, lines } = await startLoggedApp());
});
afterAll(() => app.close());

type Line = Record<string, any>;
const entries = (): Line[] => lines.map((l) => JSON.parse(l) as Line);
const byRequest = (id: string, msg: string): Line[] => entries().filter((e) => e.requestId === id && e.msg === msg);

async function send(path: string, body: unknown, headers: Record<string, string> = {}, method = "POST") {
  const init: RequestInit = { method, headers: { "content-type": "application/json", ...headers } };
  if (method === "POST") init.body = JSON.stringify(body);
  const res = await app.fetch(new Request(`http://test${path}`, init));
  return { res, text: await res.text() };
}

const call = (method: string, params: unknown, headers: Record<string, string> = {}) =>
  send("/rpc", { jsonrpc: "2.0", id: 1, method, params }, headers);

let token = "";
beforeAll(async () => {
  const { text } = await call("authservice.register", { email: "lines@example.org", password: PASSWORD });
  token = JSON.parse(text).result.access_token;
});

describe("/rpc", () => {
  test("a sent X-Request-Id is answered and names the line; the line has method, caller, ms and outcome", async () => {
    const { res } = await call("authservice.me", {}, { authorization: `Bearer ${token}`, "x-request-id": "req-me-1" });
    expect(res.headers.get("x-request-id")).toBe("req-me-1");
    const [line, ...more] = byRequest("req-me-1", "rpc");
    expect(more).toEqual([]);
    expect(line).toMatchObject({ method: "authservice.me", caller: "session", outcome: "ok", level: 30 });
    expect(line?.["user"]).toMatch(/\S/);
    expect(line?.["ms"]).toEqual(expect.any(Number));
  });

  test("without one, or with one that is not a plain token, the server makes an id and answers it", async () => {
    const { res } = await call("pricingservice.get_all_pricing", {});
    const made = res.headers.get("x-request-id") ?? "";
    expect(made).toMatch(/^[A-Za-z0-9_-]+-[0-9a-z]+$/);
    expect(byRequest(made, "rpc")).toEqual([expect.objectContaining({ caller: "anonymous", outcome: "ok" })]);
    for (const bad of ["has space", "x".repeat(129), "tab\tinside", "semi;colon", 'quote"d']) {
      const answer = (await call("pricingservice.get_all_pricing", {}, { "x-request-id": bad })).res;
      const id = answer.headers.get("x-request-id") ?? "";
      expect(id, bad).not.toBe(bad);
      expect(byRequest(id, "rpc"), bad).toHaveLength(1);
    }
  });

  test("every call of a burst gets its line (no budget), refused credentials and errors included", async () => {
    const before = entries().filter((e) => e.msg === "rpc").length;
    await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        call("pricingservice.get_all_pricing", {}, { "x-request-id": `burst-${i}` }),
      ),
    );
    expect(entries().filter((e) => e.msg === "rpc").length - before).toBe(120);
    for (let i = 0; i < 120; i++) expect(byRequest(`burst-${i}`, "rpc"), `burst-${i}`).toHaveLength(1);
    await call("authservice.me", {}, { authorization: "Bearer not-a-token", "x-request-id": "req-bad-token" });
    expect(byRequest("req-bad-token", "rpc")).toEqual([
      expect.objectContaining({ caller: "refused", outcome: "error", code: -32001 }),
    ]);
  });

  test("refusals before the body (405, 415) answer the id too", async () => {
    const { res } = await send("/rpc", null, { "x-request-id": "req-get" }, "GET");
    expect(res.status).toBe(405);
    expect(res.headers.get("x-request-id")).toBe("req-get");
  });
});

describe("/mcp", () => {
  test("one line per request with the tool, the agent key as caller and the outcome; X-Request-Id answered", async () => {
    const { text } = await call(
      "apikeyservice.generate_personal",
      { name: "log key", password: PASSWORD, mcp_scope: "readwrite" },
      { authorization: `Bearer ${token}` },
    );
    const key = JSON.parse(text).result.api_key as string;
    const headers = { "x-api-key": key, accept: "application/json, text/event-stream" };
    const list = await send(
      "/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { ...headers, "x-request-id": "mcp-1" },
    );
    expect(list.res.status).toBe(200);
    expect(list.res.headers.get("x-request-id")).toBe("mcp-1");
    expect(byRequest("mcp-1", "mcp")).toEqual([
      expect.objectContaining({ method: "tools/list", caller: "agent_key", status: 200, outcome: "ok" }),
    ]);
    const tool = { name: "freezone_pricingservice_get_all_pricing", arguments: {} };
    await send(
      "/mcp",
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: tool },
      { ...headers, "x-request-id": "mcp-2" },
    );
    expect(byRequest("mcp-2", "mcp")).toEqual([
      expect.objectContaining({ method: "tools/call", tool: tool.name, caller: "agent_key", outcome: "ok" }),
    ]);
    const missing = { name: "freezone_no_such_tool", arguments: {} };
    await send(
      "/mcp",
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: missing },
      { ...headers, "x-request-id": "mcp-3" },
    );
    expect(byRequest("mcp-3", "mcp")).toEqual([expect.objectContaining({ tool: missing.name, outcome: "error" })]);
    const refused = await send("/mcp", { jsonrpc: "2.0", id: 4, method: "tools/list" }, { "x-request-id": "mcp-4" });
    expect(refused.res.status).toBe(401);
    expect(byRequest("mcp-4", "mcp")).toEqual([
      expect.objectContaining({ caller: "refused", status: 401, outcome: "error" }),
    ]);
    expect(lines.join("\n")).not.toContain(key);
  });
});

describe("other routes", () => {
  test("health, documents and pages get an http line without the query (links carry tokens there)", async () => {
    const health = await send("/health", null, { "x-request-id": "h-1" }, "GET");
    expect(health.res.headers.get("x-request-id")).toBe("h-1");
    expect(byRequest("h-1", "http")).toEqual([
      expect.objectContaining({ http: "GET", path: "/health", status: 200, ms: expect.any(Number) }),
    ]);
    const page = await send("/verify-email?token=secret-token-value", null, { "x-request-id": "p-1" }, "GET");
    expect(page.res.status).toBe(200);
    expect(byRequest("p-1", "http")).toEqual([expect.objectContaining({ path: "/verify-email", status: 200 })]);
    const missing = await send("/no/such/page", null, {}, "GET");
    const id = missing.res.headers.get("x-request-id") ?? "";
    expect(byRequest(id, "http")).toEqual([expect.objectContaining({ status: 404 })]);
    expect(lines.join("\n")).not.toContain("secret-token-value");
  });
});
