import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RpcEndpoint } from "../../src/app/rpc-endpoint.ts";
import type { RequestInfo } from "../../src/rpc/context.ts";
import { dispatchCall, type Entry } from "../../src/rpc/dispatcher.ts";
import { RpcError } from "../../src/rpc/errors.ts";
import { nestingDepth, refuseNul } from "../../src/rpc/jsonrpc.ts";
import { isPromiseLike } from "../../src/rpc/maybe-async.ts";
import { newRequestId } from "../../src/rpc/runtime.ts";
import { createContext } from "../../src/rpc/runtime-context.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { toolPolicy } from "../support/tool-policy.ts";

// Issue 18: a call that waits for nothing answers without a promise, with the same policy and errors.
const ajv = new Ajv({ strict: false });
const NO_CREDENTIALS = { bearer: null, apiKey: null, both: false };

function syncEntry(name: string, invoke: Entry["invoke"], overrides: Partial<Entry> = {}): Entry {
  return {
    name,
    kind: "service",
    owner: "HotPathTestService",
    op: name.split(".")[1],
    domain: "platform",
    auth: "anonymous",
    internal: false,
    callerBinding: null,
    password: null,
    audit: null,
    mcp: toolPolicy(`freezone_${name.replace(".", "_")}`, true, { idempotent: true }),
    errors: { PricingError: ["InvalidInput"] },
    result: "X",
    paramNames: ["n"],
    aliases: [],
    validateParams: ajv.compile({
      type: "object",
      properties: { n: { type: "integer" } },
      additionalProperties: false,
    }),
    validateResult: ajv.compile({ type: "object", required: ["twice"] }),
    invoke,
    ...overrides,
  } as Entry;
}

const request = (body = ""): RequestInfo => ({
  requestId: "hot-1",
  ip: "127.0.0.1",
  userAgent: null,
  rawBody: body,
  headers: {},
});

let t: TestApp;
const twice = syncEntry("hotpath.twice", ((_ctx: unknown, p: { n?: number }) => ({ twice: (p.n ?? 0) * 2 })) as never);

beforeAll(async () => {
  t = await startTestApp();
  t.app.runtime.registry.set(twice.name, twice);
});
afterAll(() => t.close());

const run = (entry: Entry, params: unknown) =>
  dispatchCall(entry, createContext(t.app.runtime, null, request(), entry), params);

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error("did not throw");
}

describe("the synchronous fast path of dispatch", () => {
  test("a read-only anonymous call whose handler returns a value answers it at once, not as a promise", () => {
    const value = run(twice, { n: 21 });
    expect(isPromiseLike(value)).toBe(false);
    expect(value).toEqual({ twice: 42 });
  });

  test("its params are validated as on every path: an unknown param is -32602, thrown at once", () => {
    expect(thrown(() => run(twice, { n: 1, other: 2 }))).toMatchObject({ code: -32602 });
    expect(thrown(() => run(twice, { n: "x\u0000" }))).toMatchObject({ code: -32602 });
  });

  test("a result that does not match its schema is -32603, as on the asynchronous path", () => {
    const bad = syncEntry("hotpath.bad", (() => ({ wrong: 1 })) as never);
    expect(thrown(() => run(bad, {}))).toMatchObject({ code: -32603 });
  });

  test("an error its method does not declare becomes -32603; a declared one is answered as thrown", () => {
    const undeclared = syncEntry("hotpath.undeclared", (() => {
      throw RpcError.app("ResidentError", "NotFound");
    }) as never);
    expect(thrown(() => run(undeclared, {}))).toMatchObject({ code: -32603 });
    const declared = syncEntry("hotpath.declared", (() => {
      throw RpcError.app("PricingError", "InvalidInput", "bad input");
    }) as never);
    expect(thrown(() => run(declared, {}))).toMatchObject({ message: "bad input", data: { variant: "InvalidInput" } });
  });

  test("a handler that returns a promise, or opens the unit of work (flushed after it), is waited for", async () => {
    const later = syncEntry("hotpath.later", (async () => ({ twice: 2 })) as never);
    const opened = syncEntry("hotpath.opened", ((ctx: { em: unknown }) => ({ twice: ctx.em ? 4 : 0 })) as never);
    const a = run(later, {});
    const b = run(opened, {});
    expect(isPromiseLike(a) && isPromiseLike(b)).toBe(true);
    expect(await a).toEqual({ twice: 2 });
    expect(await b).toEqual({ twice: 4 });
  });

  test("a method that writes still runs in its transaction: a promise, whatever its handler returns", async () => {
    const writes = syncEntry("hotpath.writes", (() => ({ twice: 6 })) as never, {
      mcp: toolPolicy("freezone_hotpath_writes", false),
    });
    const value = run(writes, {});
    expect(isPromiseLike(value)).toBe(true);
    expect(await value).toEqual({ twice: 6 });
  });
});

describe("the endpoint answers a call that waits for nothing without a promise", () => {
  test("a single call with no credentials is answered in the same turn", () => {
    const endpoint = new RpcEndpoint(t.app.runtime, "all");
    const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "hotpath.twice", params: { n: 4 } });
    const answer = endpoint.handle(request(body), NO_CREDENTIALS, (a) => a);
    expect(isPromiseLike(answer)).toBe(false);
    expect(answer).toEqual({ status: 200, body: '{"jsonrpc":"2.0","id":7,"result":{"twice":8}}' });
  });

  test("a batch mixing synchronous calls, an asynchronous one and refusals keeps its order", async () => {
    const endpoint = new RpcEndpoint(t.app.runtime, "all");
    const body = JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "hotpath.twice", params: { n: 1 } },
      { jsonrpc: "2.0", id: 2, method: "pricingservice.get_all_pricing", params: {} },
      { jsonrpc: "2.0", id: 3, method: "no.such" },
      { jsonrpc: "2.0", id: 4, method: "hotpath.twice", params: { n: 2 } },
    ]);
    const answer = await endpoint.handle(request(body), NO_CREDENTIALS, (a) => a);
    const parts = JSON.parse(answer.body ?? "[]") as { id: number; result?: unknown; error?: { code: number } }[];
    expect(parts.map((p) => p.id)).toEqual([1, 2, 3, 4]);
    expect(parts[0]?.result).toEqual({ twice: 2 });
    expect(parts[2]?.error?.code).toBe(-32601);
    expect(parts[3]?.result).toEqual({ twice: 4 });
  });
});

describe("pieces of the hot path", () => {
  test("nesting depth counts brackets outside strings, escaped quotes and backslashes included", () => {
    expect(nestingDepth('{"a":"x\\"[[[[","b":[1]}')).toBe(2);
    expect(nestingDepth('["\\\\",[[1]]]')).toBe(3);
    expect(nestingDepth('["\\\\\\"[[",[1]]')).toBe(2);
    expect(nestingDepth(`${"[".repeat(70)}${"]".repeat(70)}`)).toBe(70);
    expect(nestingDepth('["unclosed [[[')).toBe(1);
  });

  test("a NUL anywhere is refused with its path, in a key or a nested value", () => {
    expect(() => refuseNul({ a: [1, { b: "ok" }] }, "params")).not.toThrow();
    expect(thrown(() => refuseNul({ a: [1, { b: "x\u0000" }] }, "params"))).toMatchObject({
      data: { errors: [{ path: "/a/1/b" }] },
    });
    expect(thrown(() => refuseNul({ ["k\u0000ey"]: 1 }, "params"))).toMatchObject({
      data: { errors: [{ path: "/key" }] },
    });
  });

  test("request ids are unique within the process and share its random prefix", () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(1000);
    const prefixes = new Set(ids.map((id) => id.slice(0, id.lastIndexOf("-"))));
    expect(prefixes.size).toBe(1);
    expect([...prefixes][0]).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });
});
