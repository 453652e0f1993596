import { beforeEach, expect, test } from "vitest";
import { pagePath } from "../../src/services/frontend-error-service.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { limits } from "./support.ts";

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp({ rateLimits: limits({ frontendErrorsPerMinute: 3 }) });
});

const report = (params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  t.rpc(
    "frontenderrorservice.log",
    { error_code: "network", page: "/companies", message: "fetch failed", ...params },
    { "user-agent": "TestBrowser/1.0", ...headers },
  );

test("an anonymous report is stored with the client's address and user agent and answers only logged", async () => {
  const r = await report();
  expect(r.result).toEqual({ logged: true });
  const rows = await sql(t, `select user_id, error_code, page, message, user_agent, ip_address from "frontend_error"`);
  expect(rows).toEqual([
    {
      user_id: "",
      error_code: "network",
      page: "/companies",
      message: "fetch failed",
      user_agent: "TestBrowser/1.0",
      ip_address: "127.0.0.1",
    },
  ]);
});

test("a signed-in reporter is recorded by user id", async () => {
  const ada = await t.register("ada@example.org");
  await report({}, { authorization: `Bearer ${ada.token}` });
  expect((await sql(t, `select user_id from "frontend_error"`))[0]?.user_id).toBe(ada.userId);
});

test("query strings and fragments are dropped from the page (they may carry one-time tokens)", async () => {
  await report({ page: "/reset-password?token=fzp_secret#x" });
  expect((await sql(t, `select page from "frontend_error"`))[0]?.page).toBe("/reset-password");
  expect(pagePath("/a#b?c")).toBe("/a");
});

test("oversized fields are -32602 and nothing is stored", async () => {
  for (const params of [
    { message: "m".repeat(4097) },
    { page: "p".repeat(513) },
    { error_code: "e".repeat(65) },
    { user_agent: "u".repeat(513) },
  ]) {
    expect((await report(params)).error?.code).toBe(-32602);
  }
  expect(await count(t, "frontend_error")).toBe(0);
});

test("an error code that is not a plain category is InvalidInput", async () => {
  const r = await report({ error_code: "net work\n<script>" });
  expect(r.error).toMatchObject({ code: -32006, data: { type: "RpcError", variant: "InvalidInput" } });
  expect(await count(t, "frontend_error")).toBe(0);
});

test("reports are rate-limited per client address with retry_after_s", async () => {
  for (let i = 0; i < 3; i++) expect((await report()).result).toEqual({ logged: true });
  const r = await report();
  expect(r.error).toMatchObject({
    code: -32007,
    data: { type: "RpcError", variant: "RateLimited", retry_after_s: 60 },
  });
  expect(await count(t, "frontend_error")).toBe(3);
});
