import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey, insertApiKey, sql } from "../support/helpers.ts";
import { testTool } from "./support.ts";

// Issue 13 item 2: a key with an mcp_scope is bound by its whole tier policy on /rpc as on /mcp.
let t: TestApp;
let owner: Client;
const FEE = { company_type: "startup_fzc", shareholder_count: 4 };

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.register("agent-owner@example.org");
  // Test methods in the app's registry, reached through /rpc: one that writes, one read-only, one that pays.
  for (const tool of [
    testTool("write"),
    testTool("read", { readOnly: true }),
    testTool("pay", { amountParam: "amount" }),
  ]) {
    t.app.runtime.registry.set(tool.entry.name, tool.entry);
  }
});
afterAll(() => t.close());

const as =
  (key: string) =>
  (method: string, params: unknown = {}) =>
    t.rpc(method, params, { "x-api-key": key });

describe("agent keys on /rpc", () => {
  test("a read key calls read-only methods only; a write is ScopeDenied and does not run", async () => {
    const { key } = await generateKey(owner, { mcp_scope: "read" });
    expect((await as(key)("testservice.read", { echo: "r" })).result).toMatchObject({ echo: "r" });
    const write = await as(key)("testservice.write", { echo: "w" });
    expect(write.error).toMatchObject({ code: -32002, data: { type: "ApiKeyError", variant: "ScopeDenied" } });
  });

  test("the assistant's system-minted key is a read agent key on /rpc too", async () => {
    const minted = await owner.rpc("apikeyservice.mint_assistant_key", {});
    const write = await as(minted.result.api_key)("testservice.write", {});
    expect(write.error?.data).toMatchObject({ variant: "ScopeDenied" });
  });

  test("blocked and allowed patterns match the method's tool name", async () => {
    const { key } = await generateKey(owner, { blocked_tool_patterns: "freezone_test_read" });
    expect((await as(key)("testservice.read", {})).error?.data).toMatchObject({ variant: "ScopeDenied" });
    expect((await as(key)("testservice.write", {})).result).toBeDefined();
    const only = await generateKey(owner, { allowed_tool_patterns: "freezone_pricingservice_*" });
    expect((await as(only.key)("testservice.write", {})).error?.data).toMatchObject({ variant: "ScopeDenied" });
    expect((await as(only.key)("pricingservice.get_shareholder_fee_rate", FEE)).result).toBeDefined();
  });

  test("call limits use the same counters as /mcp", async () => {
    const k = await generateKey(owner, { max_calls_per_hour: 2 });
    expect((await as(k.key)("pricingservice.get_shareholder_fee_rate", FEE)).result).toBeDefined();
    const viaMcp = await t.app.fetch(
      new Request("http://test/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "x-api-key": k.key,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "freezone_pricingservice_get_shareholder_fee_rate", arguments: FEE },
        }),
      }),
    );
    expect(((await viaMcp.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
    const third = await as(k.key)("pricingservice.get_shareholder_fee_rate", FEE);
    expect(third.error).toMatchObject({ code: -32008, data: { variant: "CallLimit" } });
  });

  test("spending limits count amounts on /rpc", async () => {
    const k = await generateKey(owner, { daily_spending_limit: 100, max_transaction_amount: 0 });
    expect((await as(k.key)("testservice.pay", { amount: 60 })).result).toBeDefined();
    const over = await as(k.key)("testservice.pay", { amount: 60 });
    expect(over.error).toMatchObject({ code: -32008, data: { variant: "SpendingLimit" } });
  });

  test("a call that needs approval creates the McpApproval and answers -32010 with its id, reason and expiry", async () => {
    const k = await generateKey(owner, { approval_threshold: 50 });
    const r = await as(k.key)("testservice.pay", { amount: 80, echo: "big" });
    expect(r.error).toMatchObject({ code: -32010, data: { type: "ApiKeyError", variant: "ApprovalRequired" } });
    const id = r.error?.data.approval_id;
    expect(r.error?.data.expires_at).toEqual(expect.any(String));
    const [row] = await sql(t, "select status, api_key_id, rpc_method from mcp_approval where sid = ?", [id]);
    expect(row).toEqual({ status: "pending", api_key_id: k.keyId, rpc_method: "testservice.pay" });
    const approved = await owner.rpc("mcpapprovalservice.approve", { approval_id: id });
    expect(approved.result.status).toBe("approved_executed");
  });

  test("a script key (no mcp_scope) keeps its owner's rights on /rpc: no tier policy", async () => {
    const { key } = await insertApiKey(t.app.runtime.orm, owner.userId, { mcp_scope: null, max_calls_per_hour: 1 });
    for (let i = 0; i < 3; i++) expect((await as(key)("testservice.write", {})).result).toBeDefined();
  });
});
