import { beforeEach, describe, expect, test } from "vitest";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count } from "../support/helpers.ts";

// Issue 13 item 13: weak inputs are refused before anything is written.
let t: TestApp;
let ada: Client;

beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});

describe("weak inputs", () => {
  test("change_password to the same password is WeakPassword", async () => {
    const r = await ada.rpc("authservice.change_password", { old_password: PASSWORD, new_password: PASSWORD });
    expect(r.error).toMatchObject({ code: -32006, data: { variant: "WeakPassword" } });
  });

  test("a whitespace-only password is WeakPassword", async () => {
    const r = await t.rpc("authservice.register", { email: "blank@example.org", password: " ".repeat(12) });
    expect(r.error).toMatchObject({ code: -32006, data: { variant: "WeakPassword", rule: "must not be blank" } });
  });

  test.each(["a b@example.org", "ada@example", "ada@@example.org", "ada@-example.org", "<ada>@example.org"])(
    "%s is not an HTML5 valid e-mail address: InvalidInput, no account",
    async (email) => {
      const r = await t.rpc("authservice.register", { email, password: "a long passphrase 2026" });
      expect(r.error?.code).toBe(-32006);
      expect(await count(t, "user")).toBe(1);
    },
  );

  test.each(["Ada\nLovelace", "Ada\r", "Ada\tL"])("control characters in names are -32602 (%j)", async (name) => {
    const r = await t.rpc("authservice.register", {
      email: "c@example.org",
      password: "a long passphrase 2026",
      first_name: name,
    });
    expect(r.error?.code).toBe(-32602);
    const key = await ada.rpc("apikeyservice.generate_personal", { name, password: PASSWORD });
    expect(key.error?.code).toBe(-32602);
  });

  test("key policy numbers past their bounds are -32602: amounts at most 1e9, counts at most 1e6", async () => {
    for (const policy of [
      { daily_spending_limit: 1e9 + 1 },
      { max_calls_per_hour: 1e6 + 1 },
      { approval_threshold: 1e12 },
    ]) {
      const r = await ada.rpc("apikeyservice.generate_personal", { name: "k", password: PASSWORD, ...policy });
      expect(r.error?.code).toBe(-32602);
    }
    const ok = await ada.rpc("apikeyservice.generate_personal", {
      name: "k",
      password: PASSWORD,
      daily_spending_limit: 1e9,
      max_calls_per_hour: 1e6,
    });
    expect(ok.result).toBeDefined();
  });
});
