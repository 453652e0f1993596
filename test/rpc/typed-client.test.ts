import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { errorOf } from "../support/helpers.ts";

// The typed test client (test/support/app.ts over generated/methods.ts): what it answers at run time here,
// what it refuses at compile time in the last test.
let t: TestApp;
let ada: Client;
beforeAll(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});
afterAll(() => t.close());

describe("typed client", () => {
  test("call answers { result } or { error }, told apart with `in`", async () => {
    const ok = await ada.call("authservice.me");
    if ("error" in ok) throw new Error("expected a result");
    expect(ok.result.user_id).toBe(ada.userId);
    const refused = await t.call("authservice.me");
    expect("result" in refused).toBe(false);
    expect(errorOf(refused)).toMatchObject({ code: -32001 });
  });

  test("a caller-bound param may be left out; naming oneself is the same call", async () => {
    const implicit = await ada.callOk("authservice.me");
    const explicit = await ada.callOk("authservice.me", { user_id: ada.userId });
    expect(explicit).toEqual(implicit);
  });

  test("callOk throws an Error naming the method and carrying the JSON reply", async () => {
    await expect(t.callOk("authservice.me")).rejects.toThrow(
      /^authservice\.me failed \(HTTP \d+\): \{"jsonrpc":"2\.0","id":\d+,"error":\{"code":-32001/,
    );
  });

  test("errorOf refuses a reply that is a result", async () => {
    expect(() => errorOf({ result: { ok: true } })).toThrow(/expected an error, got \{"result":\{"ok":true\}\}/);
  });

  test("compile-time: what tsc refuses (this function never runs; `npm run typecheck` holds it)", () => {
    const refused = async () => {
      // @ts-expect-error: no such method
      await ada.call("nosuchservice.nothing");
      // @ts-expect-error: shareholder_count is a number
      await t.call("pricingservice.get_shareholder_fee_rate", { company_type: "growth_fzc", shareholder_count: "7" });
      // @ts-expect-error: company_type is required
      await t.call("pricingservice.get_shareholder_fee_rate", { shareholder_count: 7 });
      // @ts-expect-error: unknown params are refused
      await ada.call("authservice.me", { verbose: true });
      const r = await ada.call("apikeyservice.list_personal");
      // @ts-expect-error: the result needs narrowing first
      r.result.items;
      // @ts-expect-error: a record's secret fields never reach the caller
      (await ada.callOk("apikey.get", { sid: "x" })).key_hash;
    };
    expect(refused).toBeTypeOf("function");
  });
});
