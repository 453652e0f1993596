import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { PASSWORD, startTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
let server: Server;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  server = createHttpServer(t.app);
  base = `http://127.0.0.1:${await listen(server, 0, "127.0.0.1")}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  fetch(`${base}${path}`, { method: "POST", headers, body });

describe("the HTTP server on a real port", () => {
  test("the lean JSON-RPC path answers calls with credentials like the app does", async () => {
    const reg = await post(
      "/rpc",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "authservice.register",
        params: { email: "port@example.org", password: PASSWORD },
      }),
    );
    const token = ((await reg.json()) as any).result.access_token;
    const me = await post(
      "/freezone/identity/rpc",
      JSON.stringify({ jsonrpc: "2.0", id: "x", method: "authservice.me", params: {} }),
      {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
      },
    );
    expect(me.status).toBe(200);
    expect(me.headers.get("content-type")).toBe("application/json");
    expect(await me.json()).toMatchObject({ jsonrpc: "2.0", id: "x", result: { email: "port@example.org" } });
  });

  test("405, 415, 413 and 204 on the lean path", async () => {
    expect((await fetch(`${base}/rpc`)).status).toBe(405);
    expect((await post("/rpc", "{}", { "content-type": "text/plain" })).status).toBe(415);
    expect((await post("/rpc", `"${"x".repeat(1024 * 1024)}"`)).status).toBe(413);
    const note = await post("/rpc", JSON.stringify({ jsonrpc: "2.0", method: "rpc.discover" }));
    expect(note.status).toBe(204);
    expect(await note.text()).toBe("");
  });

  test("other routes go through Hono", async () => {
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: "ok", database: "up" });
    expect((await fetch(`${base}/api/v1/freezone/finance/openrpc.json`)).status).toBe(200);
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
  });

  test("a batch of 100 calls answers 100 responses in order", async () => {
    const batch = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "pricingservice.get_all_pricing",
    }));
    const body = (await (await post("/rpc", JSON.stringify(batch))).json()) as { id: number }[];
    expect(body.map((r) => r.id)).toEqual(batch.map((b) => b.id));
  });
});
