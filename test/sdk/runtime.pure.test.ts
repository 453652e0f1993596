import { describe, expect, test } from "vitest";
import { createClient, type FetchLike, FreezoneRpcError, Transport } from "../../clients/ts/src/index.ts";
import { noSleep } from "./support.ts";

// The client's runtime against scripted answers (no server): every kind of failure comes back as a
// FreezoneRpcError, and which of them a read retries.
type Answer = { status: number; body: string };

/** A fetch that answers from `script` in order, echoing each request's id into `{ id }` placeholders. */
function scripted(script: ((id: unknown) => Answer)[]) {
  const sent: string[] = [];
  const fetch: FetchLike = async (_url, init) => {
    const body = JSON.parse(init.body);
    sent.push(body.method);
    const next = script.shift();
    if (!next) throw new Error("no more answers scripted");
    const answer = next(body.id);
    return { status: answer.status, text: async () => answer.body };
  };
  return { fetch, sent };
}

const rpcError = (code: number, message: string, data?: unknown) => (id: unknown) => ({
  status: 200,
  body: JSON.stringify({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } }),
});
const ok = (result: unknown) => (id: unknown) => ({
  status: 200,
  body: JSON.stringify({ jsonrpc: "2.0", id, result }),
});
const http = (status: number, body: string) => () => ({ status, body });

async function failure(promise: Promise<unknown>): Promise<FreezoneRpcError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof FreezoneRpcError)) throw new Error(`expected a FreezoneRpcError, got ${String(err)}`);
  return err;
}

const ME = { user_id: "u1", email: "a@example.org" };

describe("failures are typed", () => {
  test("JSON-RPC's own codes get type RpcError and a named variant", async () => {
    const { fetch } = scripted([
      rpcError(-32602, "Invalid params: / must NOT have additional properties", { errors: [] }),
    ]);
    const err = await failure(createClient({ url: "http://x/rpc", fetch }).call("authservice.me", { extra: 1 }));
    expect([err.code, err.type, err.variant, err.method]).toEqual([
      -32602,
      "RpcError",
      "InvalidParams",
      "authservice.me",
    ]);
    expect(err.data).toEqual({ errors: [] });
  });

  test("a non-JSON answer is an HttpError with its status; a JSON answer that is not JSON-RPC is InvalidResponse", async () => {
    const { fetch } = scripted([http(413, "Payload Too Large"), http(200, '{"hello":1}')]);
    const client = createClient({ url: "http://x/rpc", fetch });
    const tooLarge = await failure(client.residentservice.create({ data: {} as never }));
    expect([tooLarge.code, tooLarge.type, tooLarge.variant, tooLarge.status]).toEqual([
      -32099,
      "TransportError",
      "HttpError",
      413,
    ]);
    const odd = await failure(client.residentservice.create({ data: {} as never }));
    expect([odd.type, odd.variant, odd.status]).toEqual(["TransportError", "InvalidResponse", 200]);
  });

  test("an error answered with a null id (the server could not read the request) fails the call", async () => {
    const { fetch } = scripted([
      () => ({ status: 200, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}' }),
    ]);
    const err = await failure(createClient({ url: "http://x/rpc", fetch }).authservice.me());
    expect([err.code, err.variant]).toEqual([-32700, "ParseError"]);
  });
});

describe("retries", () => {
  test("a read is retried on 502/503 and then answers", async () => {
    const { fetch, sent } = scripted([http(502, "Bad Gateway"), http(503, "Unavailable"), ok(ME)]);
    const delays: number[] = [];
    const me = await createClient({ url: "http://x/rpc", fetch, sleep: noSleep(delays) }).authservice.me();
    expect(me).toEqual(ME);
    expect(sent).toEqual(["authservice.me", "authservice.me", "authservice.me"]);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(100);
    expect(delays[0]).toBeLessThanOrEqual(200);
    expect(delays[1]).toBeGreaterThanOrEqual(200);
    expect(delays[1]).toBeLessThanOrEqual(400);
  });

  test("a write meeting a 503 is retried with the same Idempotency-Key", async () => {
    const keys: (string | undefined)[] = [];
    const { fetch, sent } = scripted([http(503, "Unavailable"), ok({ key_id: "k1" })]);
    const recording: FetchLike = (url, init) => {
      keys.push(init.headers["idempotency-key"]);
      return fetch(url, init);
    };
    const delays: number[] = [];
    const client = createClient({ url: "http://x/rpc", fetch: recording, sleep: noSleep(delays) });
    expect(await client.apikeyservice.generate_personal({ name: "k", password: "p" })).toEqual({ key_id: "k1" });
    expect(sent).toEqual(["apikeyservice.generate_personal", "apikeyservice.generate_personal"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(delays).toHaveLength(1);
  });

  test("a busy database or a key still running is retried after retry_after_s; a reused key is not", async () => {
    const busy = rpcError(-32011, "Service unavailable", {
      type: "RpcError",
      variant: "DatabaseBusy",
      retry_after_s: 1,
    });
    const running = rpcError(-32005, "Conflict", {
      type: "RpcError",
      variant: "IdempotencyKeyInUse",
      retry_after_s: 2,
    });
    const reused = rpcError(-32005, "Conflict", { type: "RpcError", variant: "IdempotencyKeyReused" });
    const first = scripted([busy, running, ok({ key_id: "k1" })]);
    const delays: number[] = [];
    const client = createClient({ url: "http://x/rpc", fetch: first.fetch, sleep: noSleep(delays) });
    await client.apikeyservice.generate_personal({ name: "k", password: "p" });
    expect(delays).toEqual([1000, 2000]);
    const second = scripted([reused]);
    const err = await failure(
      createClient({ url: "http://x/rpc", fetch: second.fetch, sleep: noSleep() }).apikeyservice.generate_personal({
        name: "k",
        password: "p",
      }),
    );
    expect(err.variant).toBe("IdempotencyKeyReused");
    expect(second.sent).toHaveLength(1);
  });

  test("reads carry no Idempotency-Key", async () => {
    const headers: Record<string, string>[] = [];
    const { fetch } = scripted([ok(ME)]);
    const recording: FetchLike = (url, init) => {
      headers.push(init.headers);
      return fetch(url, init);
    };
    await createClient({ url: "http://x/rpc", fetch: recording }).authservice.me();
    expect(headers[0]?.["idempotency-key"]).toBeUndefined();
  });

  test("RateLimited on a read waits retry_after_s when it is within maxDelayMs, else surfaces", async () => {
    const limited = (s: number) =>
      rpcError(-32007, "Too many requests", { type: "AuthError", variant: "RateLimited", retry_after_s: s });
    const first = scripted([limited(2), ok(ME)]);
    const delays: number[] = [];
    expect(
      await createClient({ url: "http://x/rpc", fetch: first.fetch, sleep: noSleep(delays) }).authservice.me(),
    ).toEqual(ME);
    expect(delays).toEqual([2000]);
    const second = scripted([limited(60)]);
    const err = await failure(
      createClient({ url: "http://x/rpc", fetch: second.fetch, sleep: noSleep() }).authservice.me(),
    );
    expect([err.code, err.variant, err.data["retry_after_s"]]).toEqual([-32007, "RateLimited", 60]);
    expect(second.sent).toHaveLength(1);
  });

  test("a business refusal of a read is not retried", async () => {
    const { fetch, sent } = scripted([rpcError(-32003, "Not found", { type: "ResidentError", variant: "NotFound" })]);
    const err = await failure(
      createClient({ url: "http://x/rpc", fetch, sleep: noSleep() }).residentservice.get({ resident_id: "r" }),
    );
    expect(err.variant).toBe("NotFound");
    expect(sent).toHaveLength(1);
  });
});

describe("list iterators (Transport.pages)", () => {
  /** A server of `total` rows answering each page by the style's own params. */
  function pagedFetch(total: number, answer: (params: any, rows: number[]) => unknown) {
    const rows = Array.from({ length: total }, (_, i) => i + 1);
    const sent: any[] = [];
    const fetch: FetchLike = async (_url, init) => {
      const body = JSON.parse(init.body);
      sent.push(body.params);
      return {
        status: 200,
        text: async () => JSON.stringify({ jsonrpc: "2.0", id: body.id, result: answer(body.params, rows) }),
      };
    };
    return { fetch, sent };
  }
  const transport = (fetch: FetchLike, style: "cursor" | "page" | "offset", items = "items") =>
    new Transport(
      { url: "http://x/rpc", fetch, sleep: noSleep() },
      {
        readOnly: new Set(["x.list"]),
        pages: { "x.list": { style, items } },
        refresh: null,
      },
    );
  const all = async (it: AsyncIterable<unknown>) => {
    const out: unknown[] = [];
    for await (const x of it) out.push(x);
    return out;
  };

  test("offset style: offset advances by each page until a short one", async () => {
    const server = pagedFetch(7, (p, rows) => ({ rows: rows.slice(p.offset, p.offset + p.limit) }));
    expect(await all(transport(server.fetch, "offset", "rows").pages("x.list", { limit: 3 }))).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);
    expect(server.sent.map((p) => p.offset)).toEqual([0, 3, 6]);
  });

  test("offset style: an exact multiple ends on the empty page after it", async () => {
    const server = pagedFetch(6, (p, rows) => ({ rows: rows.slice(p.offset, p.offset + p.limit) }));
    expect(await all(transport(server.fetch, "offset", "rows").pages("x.list", { limit: 3 }))).toHaveLength(6);
    expect(server.sent.map((p) => p.offset)).toEqual([0, 3, 6]);
  });

  test("page style without a total: a short page is the last; from the page given", async () => {
    const server = pagedFetch(5, (p, rows) => ({
      items: rows.slice((p.page - 1) * p.page_size, p.page * p.page_size),
      page: p.page,
      page_size: p.page_size,
    }));
    expect(await all(transport(server.fetch, "page").pages("x.list", { page: 2, page_size: 2 }))).toEqual([3, 4, 5]);
    expect(server.sent.map((p) => p.page)).toEqual([2, 3]);
  });

  test("cursor style: next_cursor sent back until null; the first call sends none", async () => {
    const server = pagedFetch(5, (p, rows) => {
      const from = p.cursor ? Number(p.cursor) : 0;
      const next = from + 2 < rows.length ? String(from + 2) : null;
      return { items: rows.slice(from, from + 2), next_cursor: next };
    });
    expect(await all(transport(server.fetch, "cursor").pages("x.list", { limit: 2 }))).toEqual([1, 2, 3, 4, 5]);
    expect(server.sent.map((p) => p.cursor)).toEqual([undefined, "2", "4"]);
  });

  test("a method that is no list is refused", async () => {
    const { fetch } = pagedFetch(0, () => ({}));
    await expect(all(transport(fetch, "page").pages("x.other", {}))).rejects.toThrow(/not a list/);
  });
});
