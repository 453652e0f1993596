import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey, sql } from "../support/helpers.ts";
import { callRaw, serveMcpWithTools, testTool } from "./support.ts";

let t: TestApp;
let mcp: Awaited<ReturnType<typeof serveMcpWithTools>>;
let owner: Client;

const PAY = "freezone_test_pay";
const ECHO = "freezone_test_echo";
const CREDIT = "freezone_test_credit";

const unlimited = {
  max_calls_per_hour: 0,
  max_calls_per_day: 0,
  max_transaction_amount: 0,
  daily_spending_limit: 0,
  monthly_spending_limit: 0,
};
const key = (policy: Record<string, unknown> = {}) => generateKey(owner, policy);
const refusal = (reply: { result?: any }) => JSON.parse(reply.result.content[0].text);

beforeAll(async () => {
  t = await startTestApp();
  mcp = await serveMcpWithTools(t.app.runtime, [
    testTool("echo", { readOnly: true }),
    testTool("pay", { amountParam: "amount" }),
    testTool("credit", { amountParam: "amount", owner: "CreditService" }),
  ]);
});
afterAll(async () => {
  await mcp.close();
  await t.close();
});
beforeEach(async () => {
  t.clock.set("2026-11-23T10:00:00.000Z");
  owner = await t.register(`limits${Math.random()}@example.org`);
});

describe("tool patterns", () => {
  test("blocked globs win over allowed ones; outside a non-empty allowed list nothing runs", async () => {
    const k = await key({
      allowed_tool_patterns: "freezone_test_*",
      blocked_tool_patterns: "freezone_test_pay, *_nothing",
    });
    expect((await callRaw(mcp.url, k.key, ECHO, { echo: "hi" })).result.structuredContent.echo).toBe("hi");
    const blocked = await callRaw(mcp.url, k.key, PAY, { amount: 1 });
    expect(blocked.result.isError).toBe(true);
    expect(refusal(blocked)).toMatchObject({ type: "ApiKeyError", variant: "ScopeDenied" });
    expect(refusal(blocked).message).toContain("blocked");
    const outside = await callRaw(mcp.url, k.key, "freezone_mcpapprovalservice_list_pending", {});
    expect(refusal(outside).message).toContain("allowed");
    const statuses = await sql(
      t,
      "select tool_name, result_status from mcp_call_log where api_key_id = ? order by sid",
      [k.keyId],
    );
    expect(statuses.map((r) => r.result_status).sort()).toEqual(["rejected", "rejected", "success"]);
    expect(await sql(t, "select * from mcp_approval where api_key_id = ?", [k.keyId])).toHaveLength(0);
  });
});

describe("call rates", () => {
  test("calls per hour: the call over the limit is refused with CallLimit until the next UTC hour", async () => {
    const k = await key({ max_calls_per_hour: 3 });
    for (let i = 0; i < 3; i++) expect((await callRaw(mcp.url, k.key, ECHO, {})).result.isError).toBeFalsy();
    const over = await callRaw(mcp.url, k.key, ECHO, {});
    expect(over.result.isError).toBe(true);
    expect(refusal(over)).toEqual({
      type: "ApiKeyError",
      variant: "CallLimit",
      message: "call limit of 3 per hour reached",
      details: { limit: 3, window: "hour" },
    });
    t.clock.set("2026-11-23T10:59:59.999Z");
    expect((await callRaw(mcp.url, k.key, ECHO, {})).result.isError).toBe(true);
    t.clock.set("2026-11-23T11:00:00.000Z");
    expect((await callRaw(mcp.url, k.key, ECHO, {})).result.isError).toBeFalsy();
    const log = await sql(t, "select result_status from mcp_call_log where api_key_id = ?", [k.keyId]);
    expect(log.filter((r) => r.result_status === "rejected")).toHaveLength(2);
  });

  test("calls per UTC calendar day", async () => {
    const k = await key({ max_calls_per_hour: 0, max_calls_per_day: 2 });
    t.clock.set("2026-11-23T23:59:00.000Z");
    await callRaw(mcp.url, k.key, ECHO, {});
    await callRaw(mcp.url, k.key, ECHO, {});
    expect(refusal(await callRaw(mcp.url, k.key, ECHO, {}))).toMatchObject({
      variant: "CallLimit",
      details: { window: "day" },
    });
    t.clock.set("2026-11-24T00:00:00.000Z");
    expect((await callRaw(mcp.url, k.key, ECHO, {})).result.isError).toBeFalsy();
  });

  test("0 means unlimited", async () => {
    const k = await key(unlimited);
    for (let i = 0; i < 30; i++)
      expect((await callRaw(mcp.url, k.key, PAY, { amount: 1000 })).result.isError).toBeFalsy();
  });
});

describe("spending limits in EUR", () => {
  test("per transaction: over the limit is refused, at the limit runs", async () => {
    const k = await key({ max_transaction_amount: 100 });
    expect(refusal(await callRaw(mcp.url, k.key, PAY, { amount: 100.5 }))).toMatchObject({
      variant: "SpendingLimit",
      details: { limit: 100, window: "transaction" },
    });
    expect((await callRaw(mcp.url, k.key, PAY, { amount: 100 })).result.structuredContent.amount).toBe(100);
  });

  test("per UTC day, then per UTC month", async () => {
    const k = await key({ ...unlimited, daily_spending_limit: 500, monthly_spending_limit: 800 });
    expect((await callRaw(mcp.url, k.key, PAY, { amount: 300 })).result.isError).toBeFalsy();
    expect(refusal(await callRaw(mcp.url, k.key, PAY, { amount: 300 }))).toMatchObject({
      details: { window: "day", limit: 500 },
    });
    expect((await callRaw(mcp.url, k.key, PAY, { amount: 200 })).result.isError).toBeFalsy();
    t.clock.set("2026-11-24T09:00:00.000Z");
    expect((await callRaw(mcp.url, k.key, PAY, { amount: 300 })).result.isError).toBeFalsy();
    expect(refusal(await callRaw(mcp.url, k.key, PAY, { amount: 1 }))).toMatchObject({
      details: { window: "month", limit: 800 },
    });
    t.clock.set("2026-12-01T00:00:00.000Z");
    expect((await callRaw(mcp.url, k.key, PAY, { amount: 300 })).result.isError).toBeFalsy();
  });

  test("other currencies are converted with the FX provider; credits are USD; the EUR figure is logged", async () => {
    const k = await key({ ...unlimited, max_transaction_amount: 95 });
    expect((await callRaw(mcp.url, k.key, PAY, { amount: 100, currency: "USD" })).result.isError).toBeFalsy();
    expect(refusal(await callRaw(mcp.url, k.key, PAY, { amount: 110, currency: "USD" }))).toMatchObject({
      variant: "SpendingLimit",
    });
    expect((await callRaw(mcp.url, k.key, CREDIT, { amount: 100 })).result.isError).toBeFalsy();
    expect(refusal(await callRaw(mcp.url, k.key, PAY, { amount: 1, currency: "XXX" }))).toMatchObject({
      variant: "ProviderRejected",
    });
    const log = await sql(
      t,
      "select amount::float8 as amount, amount_eur::float8 as amount_eur, result_status from mcp_call_log where api_key_id = ? order by created_at, amount",
      [k.keyId],
    );
    expect(log.map((r) => [r.amount, r.amount_eur, r.result_status])).toEqual(
      expect.arrayContaining([
        [100, 92, "success"],
        [110, 101.2, "rejected"],
      ]),
    );
  });

  test("a call that fails gives its amount back (it still counts as a call)", async () => {
    const k = await key({ ...unlimited, daily_spending_limit: 100, max_calls_per_hour: 10 });
    const failed = await callRaw(mcp.url, k.key, PAY, { amount: 80, fail: true });
    expect(refusal(failed)).toMatchObject({ type: "McpApprovalError", variant: "InvalidInput" });
    expect((await callRaw(mcp.url, k.key, PAY, { amount: 80 })).result.isError).toBeFalsy();
    const counters = await sql(
      t,
      `select "window", calls, amount_eur::float8 as amount_eur from mcp_usage_counter where api_key_id = ? order by "window"`,
      [k.keyId],
    );
    expect(counters.map((c) => [c.window.split(":")[0], Number(c.calls), c.amount_eur])).toEqual([
      ["day", 0, 80],
      ["hour", 2, 0],
      ["month", 0, 80],
    ]);
  });
});

describe("limits hold under concurrency", () => {
  test("50 simultaneous calls against a limit of 10 let exactly 10 through", async () => {
    const k = await key({ max_calls_per_hour: 10 });
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => callRaw(mcp.url, k.key, ECHO, {}, i)));
    expect(replies.filter((r) => r.result && !r.result.isError)).toHaveLength(10);
    expect(replies.filter((r) => r.result?.isError && refusal(r).variant === "CallLimit")).toHaveLength(40);
    const counter = await sql(
      t,
      `select calls from mcp_usage_counter where api_key_id = ? and "window" like 'hour:%'`,
      [k.keyId],
    );
    expect(Number(counter[0].calls)).toBe(10);
  });

  test("50 simultaneous payments against a daily limit of 10 x 10 EUR spend exactly 100 EUR", async () => {
    const k = await key({ ...unlimited, daily_spending_limit: 100 });
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => callRaw(mcp.url, k.key, PAY, { amount: 10 }, i)),
    );
    expect(replies.filter((r) => r.result && !r.result.isError)).toHaveLength(10);
    const counter = await sql(
      t,
      `select amount_eur::float8 as amount_eur from mcp_usage_counter where api_key_id = ? and "window" like 'day:%'`,
      [k.keyId],
    );
    expect(counter[0].amount_eur).toBe(100);
  });
});
