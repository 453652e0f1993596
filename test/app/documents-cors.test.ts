import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { startTestApp, type TestApp } from "../support/app.ts";

// Issue 32 item 9: the served documents compressed, with an ETag and open CORS; /rpc answers preflights for the
// configured origins only (ALLOWED_ORIGINS, none by default), on both HTTP paths (Hono and node:http).

const PLAYGROUND = "https://playground.open-rpc.org";
let t: TestApp;
let closed: TestApp;
let base: string;
let closeServer: () => void;

beforeAll(async () => {
  t = await startTestApp({ allowedOrigins: [PLAYGROUND] });
  closed = await startTestApp();
  const server = createHttpServer(t.app);
  base = `http://127.0.0.1:${await listen(server, 0, "127.0.0.1")}`;
  closeServer = () => server.close();
});
afterAll(async () => {
  closeServer();
  await t.close();
  await closed.close();
});

const get = (headers: Record<string, string> = {}) => fetch(`${base}/api/v1/openrpc.json`, { headers });

describe("the served OpenRPC documents", () => {
  test("compressed by the client's Accept-Encoding, the same document in each encoding", async () => {
    const plain = await t.app.fetch(new Request("http://localhost/api/v1/openrpc.json"));
    expect(plain.headers.get("content-encoding")).toBeNull();
    const text = await plain.text();
    const size = Buffer.byteLength(text);
    const raw = async (encoding: string) => {
      const r = await t.app.fetch(
        new Request("http://localhost/api/v1/openrpc.json", { headers: { "accept-encoding": encoding } }),
      );
      return { r, body: Buffer.from(await r.arrayBuffer()) };
    };
    const br = await raw("gzip, deflate, br");
    expect(br.r.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(br.body).toString("utf8")).toBe(text);
    const gz = await raw("gzip");
    expect(gz.r.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(gz.body).toString("utf8")).toBe(text);
    // A refused coding (q=0) is not used.
    expect((await raw("br;q=0, gzip")).r.headers.get("content-encoding")).toBe("gzip");
    // At least 8x smaller for a 1 MB JSON document.
    expect(size).toBeGreaterThan(500_000);
    expect(br.body.length * 8).toBeLessThan(size);
    expect(gz.body.length * 8).toBeLessThan(size);
    expect(br.r.headers.get("vary")).toBe("Accept-Encoding");
  });

  test("an ETag: If-None-Match answers 304 without a body; another tag gets the document", async () => {
    const first = await get();
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    await first.arrayBuffer();
    const again = await get({ "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const other = await get({ "if-none-match": '"something-else"' });
    expect(other.status).toBe(200);
    // Each domain's document has its own tag.
    const domain = await fetch(`${base}/api/v1/freezone/identity/openrpc.json`);
    expect(domain.status).toBe(200);
    expect(domain.headers.get("etag")).not.toBe(etag);
  });

  test("readable from any origin, never with credentials", async () => {
    const r = await get({ origin: "https://anywhere.example" });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("CORS on /rpc", () => {
  const preflight = (url: string, origin: string, method = "POST") =>
    fetch(url, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": method,
        "access-control-request-headers": "content-type, authorization",
      },
    });

  test("a configured origin's preflight is answered 204 with what it may send (node:http and Hono)", async () => {
    for (const r of [
      await preflight(`${base}/rpc`, PLAYGROUND),
      await t.app.fetch(
        new Request("http://localhost/rpc", {
          method: "OPTIONS",
          headers: { origin: PLAYGROUND, "access-control-request-method": "POST" },
        }),
      ),
    ]) {
      expect(r.status).toBe(204);
      expect(r.headers.get("access-control-allow-origin")).toBe(PLAYGROUND);
      expect(r.headers.get("access-control-allow-methods")).toBe("POST");
      expect(r.headers.get("access-control-allow-headers")).toContain("authorization");
      expect(r.headers.get("access-control-allow-headers")).toContain("x-api-key");
      expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    }
    const domain = await preflight(`${base}/freezone/identity/rpc`, PLAYGROUND);
    expect(domain.status).toBe(204);
  });

  test("other origins, other methods, and an instance with no origins configured are refused 403", async () => {
    const stranger = await preflight(`${base}/rpc`, "https://evil.example");
    expect(stranger.status).toBe(403);
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull();
    expect((await preflight(`${base}/rpc`, PLAYGROUND, "PUT")).status).toBe(403);
    const none = await closed.app.fetch(
      new Request("http://localhost/rpc", {
        method: "OPTIONS",
        headers: { origin: PLAYGROUND, "access-control-request-method": "POST" },
      }),
    );
    expect(none.status).toBe(403);
    expect(none.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("a call from the configured origin carries its origin back; one from another origin does not", async () => {
    const call = (origin: string) =>
      fetch(`${base}/rpc`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "creditservice.get_pricing" }),
      });
    const allowed = await call(PLAYGROUND);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(PLAYGROUND);
    expect(allowed.headers.get("access-control-expose-headers")).toBe("x-request-id");
    expect(((await allowed.json()) as { result?: unknown }).result).toBeDefined();
    const other = await call("https://evil.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    // GET is still 405, and says what the endpoint takes.
    const got = await fetch(`${base}/rpc`);
    expect(got.status).toBe(405);
    expect(got.headers.get("allow")).toBe("POST, OPTIONS");
  });
});
