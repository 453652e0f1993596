import { DeadlockException, DriverException, UniqueConstraintViolationException } from "@mikro-orm/core";
import { describe, expect, test } from "vitest";
import { declaredFault, ShuttingDownError, SlotTimeoutError } from "../../src/rpc/unexpected-error.ts";

// Issue 31 items 2, 3 and 8: database faults reach clients as a declared, retryable -32011, never a bare -32603.
function driver(code: string, message = "driver error"): DriverException {
  return new DriverException(Object.assign(new Error(message), { code }));
}

function answer(err: unknown) {
  return declaredFault(err)?.toJSON() ?? null;
}

describe("declaredFault", () => {
  test.each([
    ["statement timeout", driver("57014", "canceling statement due to statement timeout")],
    ["lock timeout", driver("55P03", "canceling statement due to lock timeout")],
    ["idle transaction ended", driver("25P03")],
    ["deadlock", new DeadlockException(Object.assign(new Error("deadlock detected"), { code: "40P01" }))],
    ["pool timeout", Object.assign(new Error("Knex: Timeout acquiring a connection."), { name: "KnexTimeoutError" })],
    ["write slot wait", new SlotTimeoutError(10_000)],
  ])("%s is DatabaseBusy, retry after 1 s", (_name, err) => {
    expect(answer(err)).toEqual({
      code: -32011,
      message: "the database is busy; retry the call",
      data: { type: "RpcError", variant: "DatabaseBusy", retry_after_s: 1 },
    });
  });

  test.each([
    ["refused", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["reset", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
    ["admin shutdown", driver("57P01", "terminating connection due to administrator command")],
    ["terminated", new Error("Connection terminated unexpectedly")],
    ["wrapped", new DriverException(Object.assign(new Error("x"), { code: "08006" }))],
  ])("%s is DatabaseUnavailable", (_name, err) => {
    expect(answer(err)?.data).toEqual({ type: "RpcError", variant: "DatabaseUnavailable", retry_after_s: 5 });
  });

  test("shutdown and unique races have their own answers; anything else is left to -32603", () => {
    expect(answer(new ShuttingDownError())?.data?.variant).toBe("ShuttingDown");
    const unique = new UniqueConstraintViolationException(Object.assign(new Error("dup"), { code: "23505" }));
    expect(answer(unique)?.data?.variant).toBe("AlreadyExists");
    expect(answer(driver("42601", "syntax error"))).toBeNull();
    expect(answer(new TypeError("x is undefined"))).toBeNull();
    expect(answer("a string")).toBeNull();
  });

  test("the cause stays off the wire", () => {
    const err = driver("57014", "select secret from users where ...");
    expect(JSON.stringify(answer(err))).not.toContain("secret");
  });
});
