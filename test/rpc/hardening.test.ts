import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, insertApiKey } from "../support/helpers.ts";

// Issue 13, items 4, 9, 10 and 11: NUL characters, over-long method names, notifications, two credentials.
/** What an MCP client accepts (Streamable HTTP). */
const MCP_ACCEPT = { accept: "application/json, text/event-stream" };

let t: TestApp;
let alice: Client;

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.register("alice@example.org");
});
afterAll(() => t.close());

describe("NUL characters never reach the database", () => {
  test("a NUL in a string param is -32602 before the handler runs, and nothing is written", async () => {
    const users = await count(t, "user");
    const r = await t.rpc("authservice.register", {
      email: "eve\u0000@example.org",
      password: "a long passphrase 2026",
    });
    expect(r.error).toMatchObject({ code: -32602 });
    expect(r.error?.message).toContain("NUL");
    expect(await count(t, "user")).toBe(users);
  });

  test("anonymous login with a NUL in the password is -32602, not an internal error", async () => {
    const r = await t.rpc("authservice.login", { email: "alice@example.org", password: "x\u0000y" });
    expect(r.error).toMatchObject({ code: -32602 });
  });

  test("a NUL inside the JSON text of a generic record write is -32602", async () => {
    const data = (title: string) => JSON.stringify({ title, body: "b" });
    const r = await alice.rpc("usermessage.set", { data: data("t\u0000") });
    expect(r.error).toMatchObject({ code: -32602 });
    expect(r.error?.message).toContain("NUL");
    expect((await alice.rpc("usermessage.set", { data: data("t") })).error?.code).not.toBe(-32602);
  });

  test("a NUL in an object key deep in the params is -32602", async () => {
    const r = await alice.rpc("residentservice.create", { data: { nested: [{ ["k\u0000"]: 1 }] } });
    expect(r.error).toMatchObject({ code: -32602, data: { errors: [{ path: "/data/nested/0/k" }] } });
  });
});

describe("method names", () => {
  test("a name over 256 characters is refused as an invalid request without being echoed", async () => {
    const name = `authservice.${"x".repeat(300)}`;
    const r = await t.rpc(name, {});
    expect(r.error).toMatchObject({ code: -32600 });
    expect(JSON.stringify(r.body)).not.toContain("x".repeat(257));
  });

  test("an unknown name of at most 256 characters is -32601", async () => {
    const r = await t.rpc(`authservice.${"y".repeat(244)}`, {});
    expect(r.error?.code).toBe(-32601);
  });
});

describe("notifications are never answered", () => {
  test("an empty method name without id gets no body", async () => {
    const r = await t.post("/rpc", { jsonrpc: "2.0", method: "", params: {} });
    expect(r.status).toBe(204);
    expect(r.body).toBeNull();
  });

  test("a batch of notifications with empty or over-long method names gets no body either", async () => {
    const r = await t.post("/rpc", [
      { jsonrpc: "2.0", method: "" },
      { jsonrpc: "2.0", method: "z".repeat(300), params: {} },
    ]);
    expect(r.status).toBe(204);
  });

  test("a message that is no request object (method not a string) is answered with id null, as JSON-RPC shows", async () => {
    const r = await t.post("/rpc", { jsonrpc: "2.0", method: 1, params: "bar" });
    expect(r.body).toMatchObject({ id: null, error: { code: -32600 } });
  });

  test("an invalid request with an id is still answered", async () => {
    const r = await t.post("/rpc", { jsonrpc: "2.0", id: 9, method: "" });
    expect(r.body).toMatchObject({ id: 9, error: { code: -32600 } });
  });
});

describe("one credential per request", () => {
  test("X-API-Key and Authorization together are -32001, whichever would have worked", async () => {
    const { key } = await insertApiKey(t.app.runtime.orm, alice.userId);
    const headers = { "x-api-key": key, authorization: `Bearer ${alice.token}` };
    const r = await t.rpc("authservice.me", {}, headers);
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
    expect((await t.rpc("authservice.me", {}, { "x-api-key": key })).result.user_id).toBe(alice.userId);
  });

  test("on /mcp the same is a 401", async () => {
    const { key } = await insertApiKey(t.app.runtime.orm, alice.userId);
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    const res = await t.post("/mcp", list, { ...MCP_ACCEPT, "x-api-key": key, authorization: `Bearer ${key}` });
    expect(res.status).toBe(401);
    expect(res.error).toMatchObject({ code: -32001 });
  });
});

describe("a batch answer is bounded (issue 13 item 1)", () => {
  test("rpc.discover is answered once per batch; copies are refused, other calls still run", async () => {
    const discover = (id: number) => ({ jsonrpc: "2.0", id, method: "rpc.discover" });
    const r = await t.post("/rpc", [
      discover(1),
      discover(2),
      { jsonrpc: "2.0", id: 3, method: "pricingservice.get_all_pricing", params: {} },
      discover(4),
    ]);
    expect(r.body).toHaveLength(4);
    expect(r.body[0].result.openrpc).toBe("1.3.2");
    expect(r.body[1]).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(r.body[2].result).toBeDefined();
    expect(r.body[3]).toMatchObject({ id: 4, error: { code: -32600 } });
  });

  test("calls after the answer reaches its cap are refused without running", async () => {
    // The cap is configuration; lowered for this test on the running app (a new app would reset the database).
    const config = t.app.runtime.config;
    const cap = config.maxBatchAnswerBytes;
    config.maxBatchAnswerBytes = 4000;
    try {
      const pricing = (id: number) => ({ jsonrpc: "2.0", id, method: "pricingservice.get_all_pricing", params: {} });
      const r = await t.post("/rpc", [pricing(1), pricing(2), pricing(3), pricing(4)]);
      const codes = r.body.map((x: { error?: { code: number } }) => x.error?.code ?? 0);
      expect(codes[0]).toBe(0);
      expect(codes.slice(-1)).toEqual([-32008]);
      expect(r.body.at(-1).error.data).toMatchObject({ variant: "QuotaExceeded", limit: 4000, window: "request" });
    } finally {
      config.maxBatchAnswerBytes = cap;
    }
  });
});

describe("an MCP batch answers tools/list once", () => {
  test("copies of tools/list in one request are refused, each page under 300 KB", async () => {
    const { key } = await insertApiKey(t.app.runtime.orm, alice.userId);
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });
    const res = await t.app.fetch(
      new Request("http://test/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", ...MCP_ACCEPT, "x-api-key": key },
        body: JSON.stringify([list(1), list(2), list(3)]),
      }),
    );
    const text = await res.text();
    const answers = JSON.parse(text) as { id: number; result?: unknown; error?: { code: number } }[];
    expect(answers.filter((a) => a.result !== undefined)).toHaveLength(1);
    expect(answers.filter((a) => a.error?.code === -32600)).toHaveLength(2);
    expect(text.length).toBeLessThan(300 * 1024);
  });
});
