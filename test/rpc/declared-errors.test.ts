import { Writable } from "node:stream";
import type { ValidateFunction } from "ajv";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MethodPolicy } from "../../generated/policy.ts";
import { undeclaredReason } from "../../src/rpc/declared-errors.ts";
import type { Entry } from "../../src/rpc/dispatcher.ts";
import { RpcError } from "../../src/rpc/errors.ts";
import { errorsFor } from "../../src/rpc/service-errors.ts";
import { startTestApp, type TestApp } from "../support/app.ts";

const pricingError = errorsFor("PricingService", "PricingError");
const residentError = errorsFor("ResidentService", "ResidentError");

// Type-level: a variant no method of the service declares for that type does not compile (npm run typecheck).
// @ts-expect-error PricingService declares no InsufficientFunds for PricingError
pricingError("InsufficientFunds");
// @ts-expect-error PricingService has no ResidentError at all
errorsFor("PricingService", "ResidentError");
// @ts-expect-error notFound exists only where the service declares NotFound
pricingError.notFound("price");

const method = (errors: Record<string, string[]>, auth = "user"): MethodPolicy =>
  ({ name: "testservice.m", auth, errors }) as unknown as MethodPolicy;

describe("typed error factories", () => {
  test("build the RpcError of a declared variant with its code, type and details", () => {
    const err = pricingError("InvalidInput", "too many shareholders", { max: 2 });
    expect(err).toBeInstanceOf(RpcError);
    expect(err.toJSON()).toEqual({
      code: -32006,
      message: "too many shareholders",
      data: { type: "PricingError", variant: "InvalidInput", max: 2 },
    });
    expect(residentError.notFound("resident").toJSON()).toMatchObject({
      code: -32003,
      message: "resident not found",
      data: { type: "ResidentError", variant: "NotFound" },
    });
  });
});

describe("undeclaredReason", () => {
  const m = method({ PricingError: ["InvalidInput"] });
  test("a declared type and variant pass", () => {
    expect(undeclaredReason(m, RpcError.app("PricingError", "InvalidInput"))).toBeNull();
  });
  test("an undeclared variant or type is named", () => {
    expect(undeclaredReason(m, RpcError.app("PricingError", "InsufficientFunds"))).toMatch(
      /PricingError\.InsufficientFunds/,
    );
    expect(undeclaredReason(m, RpcError.app("ResidentError", "InvalidInput"))).toMatch(/ResidentError/);
    expect(undeclaredReason(m, new RpcError(-32005, "conflict"))).toMatch(/without data.type/);
  });
  test("implicitly allowed everywhere: JSON-RPC codes, NotImplemented, RateLimited, RecordError, policy refusals", () => {
    expect(undeclaredReason(m, RpcError.invalidParams("bad"))).toBeNull();
    expect(undeclaredReason(m, RpcError.internal())).toBeNull();
    expect(undeclaredReason(m, RpcError.notImplemented("x.y"))).toBeNull();
    expect(undeclaredReason(m, RpcError.app("AuthError", "RateLimited"))).toBeNull();
    expect(undeclaredReason(m, RpcError.app("RecordError", "InvalidState"))).toBeNull();
    expect(undeclaredReason(m, RpcError.unauthenticated())).toBeNull();
    for (const v of ["SessionRequired", "AdminOnly", "NotOwner", "PasswordRequired", "WrongPassword", "Internal"]) {
      expect(undeclaredReason(m, RpcError.app("PricingError", v as never))).toBeNull();
    }
    // ... but only of one of the method's own types.
    expect(undeclaredReason(m, RpcError.app("ResidentError", "NotOwner"))).not.toBeNull();
  });
});

describe("cause", () => {
  test("never reaches the wire", () => {
    const err = RpcError.app("PricingError", "InvalidInput", "bad", {}, new Error("password=hunter2"));
    expect(err.cause).toBeInstanceOf(Error);
    expect(JSON.stringify(err)).not.toContain("hunter2");
    expect(JSON.stringify(RpcError.internal({ sql: "select secret" }))).toBe(
      '{"code":-32603,"message":"Internal error"}',
    );
  });
});

describe("the dispatcher in test mode", () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  let thrown: RpcError;

  beforeAll(async () => {
    t = await startTestApp();
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    // The runtime's logger is read per call: swap in one that records every line.
    (t.app.runtime as { log: unknown }).log = pino({ level: "debug" }, sink);
    const base = t.app.runtime.registry.get("pricingservice.get_all_pricing")!;
    const validateParams = (() => true) as unknown as ValidateFunction;
    const entry: Entry = {
      ...base,
      name: "testservice.raise",
      auth: "anonymous",
      audit: null,
      errors: { PricingError: ["InvalidInput"] },
      validateParams,
      invoke: async () => {
        throw thrown;
      },
    };
    t.app.runtime.registry.set(entry.name, entry);
  });
  afterAll(() => t.close());

  const call = async (err: RpcError) => {
    thrown = err;
    lines.length = 0;
    const r = await t.rpc("testservice.raise", {});
    return { ...r, raw: JSON.stringify(r.body) };
  };

  test("a declared variant passes through, its cause stays in the log", async () => {
    const r = await call(RpcError.app("PricingError", "InvalidInput", "bad input", {}, new Error("cause-one")));
    expect(r.error).toEqual({
      code: -32006,
      message: "bad input",
      data: { type: "PricingError", variant: "InvalidInput" },
    });
    expect(r.raw).not.toContain("cause-one");
    expect(JSON.stringify(lines)).toContain("cause-one");
  });

  test("an undeclared variant fails the call with -32603 and an error log naming method, type and variant", async () => {
    const r = await call(RpcError.app("PricingError", "InsufficientFunds", "no money", {}, new Error("cause-two")));
    expect(r.error).toEqual({ code: -32603, message: "Internal error" });
    expect(r.raw).not.toContain("cause-two");
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        method: "testservice.raise",
        type: "PricingError",
        variant: "InsufficientFunds",
      }),
    );
  });

  test("an internal error's cause is logged, never answered", async () => {
    const r = await call(RpcError.internal(new Error("select * from secrets")));
    expect(r.error).toEqual({ code: -32603, message: "Internal error" });
    expect(r.raw).not.toContain("secrets");
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, method: "testservice.raise" }));
    expect(JSON.stringify(lines)).toContain("select * from secrets");
  });
});
