import { describe, expect, test } from "vitest";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { PASSWORD } from "../support/app.ts";
import { generateKey, insertApiKey } from "../support/helpers.ts";
import { initializeMessage, postMcp, servedMcp } from "./support.ts";

const f = servedMcp();

describe("refusals before any tool runs", () => {
  test("a key without mcp_scope gets 403 with -32000 'API key does not have MCP access' and the id echoed", async () => {
    const plain = await generateKey(f.owner, { mcp_scope: null });
    const r = await postMcp(f.served.url, initializeMessage("abc"), { "x-api-key": plain.key });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      jsonrpc: "2.0",
      id: "abc",
      error: { code: -32000, message: "API key does not have MCP access" },
    });
    const call = await postMcp(
      f.served.url,
      {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "freezone_mcpapprovalservice_list_pending", arguments: {} },
      },
      { authorization: `Bearer ${plain.key}` },
    );
    expect(call.status).toBe(403);
    expect(call.body.id).toBe(9);
    expect(call.body.error.code).toBe(-32000);
    expect(await f.callLog()).toHaveLength(0);
  });

  test.each([
    ["no key", {}, "MissingCredentials"],
    ["an unknown key", { "x-api-key": "fz_u_unknownunknownunknownunknownunknown" }, "InvalidCredentials"],
    ["a session token instead of a key", { authorization: "Bearer fzs_notakey" }, "InvalidCredentials"],
  ])("%s gets 401 with -32001", async (_label, headers, variant) => {
    const r = await postMcp(f.served.url, initializeMessage(5), headers as Record<string, string>);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ id: 5, error: { code: -32001, data: { type: "AuthError", variant } } });
  });

  test("a key revoked or expired mid-session is refused with 401 on its next request", async () => {
    const client = await f.connect(f.rw.key);
    const revoked = await f.owner.rpc("apikeyservice.revoke", { key_id: f.rw.keyId, password: PASSWORD });
    expect(revoked.result.is_active).toBe(false);
    await expect(client.listTools()).rejects.toThrow(/401|KeyRevoked|revoked/i);
    const expiring = await insertApiKey(f.t.app.runtime.orm, f.owner.userId, {
      expires_at: new Date("2026-11-23T10:30:00Z"),
    });
    const ok = await postMcp(f.served.url, initializeMessage(1), { "x-api-key": expiring.key });
    expect(ok.status).toBe(200);
    f.t.clock.advance(3600);
    const late = await postMcp(f.served.url, initializeMessage(2), { "x-api-key": expiring.key });
    expect(late.status).toBe(401);
    expect(late.body.error.data.variant).toBe("KeyExpired");
    f.t.clock.set("2026-11-23T10:00:00.000Z");
  });

  test("GET and DELETE answer 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${f.served.url}/mcp`, { method, headers: { "x-api-key": f.rw.key } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  test("a browser Origin that is not allowed gets 403 and nothing runs", async () => {
    const r = await postMcp(f.served.url, initializeMessage(1), {
      "x-api-key": f.rw.key,
      origin: "https://evil.example",
    });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe(-32002);
  });

  test("a loopback page of the same host is allowed (a local tool's UI); another loopback port is not", async () => {
    const host = new URL(f.served.url).host;
    const same = await postMcp(f.served.url, initializeMessage(1), { "x-api-key": f.rw.key, origin: `http://${host}` });
    expect(same.status).toBe(200);
    const other = await postMcp(f.served.url, initializeMessage(1), {
      "x-api-key": f.rw.key,
      origin: "http://127.0.0.1:1",
    });
    expect(other.status).toBe(403);
  });

  test("wrong content type 415, body over the limit 413, bad JSON 400 -32700, bad protocol version 400", async () => {
    const headers = { "x-api-key": f.rw.key };
    expect(
      (await postMcp(f.served.url, initializeMessage(1), { ...headers, "content-type": "text/plain" })).status,
    ).toBe(415);
    const big = JSON.stringify({ ...initializeMessage(1), pad: "x".repeat(1024 * 1024) });
    expect((await postMcp(f.served.url, big, headers)).status).toBe(413);
    const bad = await postMcp(f.served.url, "{not json", headers);
    expect(bad).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
    const version = await postMcp(f.served.url, initializeMessage(1), {
      ...headers,
      "mcp-protocol-version": "1999-01-01",
    });
    expect(version.status).toBe(400);
    const notRpc = await postMcp(f.served.url, { hello: "world" }, headers);
    expect(notRpc).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
  });

  test("malformed tools/call or initialize params are -32602 with a readable message", async () => {
    const headers = { "x-api-key": f.rw.key };
    for (const params of [
      undefined,
      {},
      { name: 5 },
      { name: "freezone_mcpapprovalservice_list_pending", arguments: [1] },
    ]) {
      const r = await postMcp(f.served.url, { jsonrpc: "2.0", id: 8, method: "tools/call", params }, headers);
      expect(r.body).toMatchObject({
        id: 8,
        error: { code: -32602, message: expect.stringMatching(/^Invalid params: /) },
      });
    }
    const init = await postMcp(
      f.served.url,
      { jsonrpc: "2.0", id: 9, method: "initialize", params: { protocolVersion: 1 } },
      headers,
    );
    expect(init.body.error.code).toBe(-32602);
    const unknown = await postMcp(f.served.url, { jsonrpc: "2.0", id: 10, method: "completion/complete" }, headers);
    expect(unknown.body).toMatchObject({ id: 10, error: { code: -32601 } });
  });

  test("notifications alone are accepted with 202", async () => {
    const r = await postMcp(
      f.served.url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "x-api-key": f.rw.key },
    );
    expect(r.status).toBe(202);
  });
});

describe("through the production HTTP server (node:http path, as npm start serves it)", () => {
  test("initialize, list, call, and the same refusals as through Hono", async () => {
    const server = createHttpServer(f.t.app);
    const port = await listen(server, 0, "127.0.0.1");
    const base = `http://127.0.0.1:${port}`;
    try {
      const client = await f.connect(f.rw.key, "x-api-key", base);
      const result = await client.callTool({ name: "freezone_mcpapprovalservice_list_pending", arguments: {} });
      expect(result.structuredContent).toEqual({ items: [], next_cursor: null });
      expect((await postMcp(base, initializeMessage(1))).status).toBe(401);
      expect((await fetch(`${base}/mcp`, { method: "GET" })).status).toBe(405);
      const big = JSON.stringify({ ...initializeMessage(1), pad: "x".repeat(1024 * 1024) });
      expect((await postMcp(base, big, { "x-api-key": f.rw.key })).status).toBe(413);
    } finally {
      server.close();
    }
  });
});
