import type { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { expireApprovals } from "../../src/mcp/approval-store.ts";
import type { CatalogTool } from "../../src/mcp/tools.ts";
import { writeAudit } from "../../src/repos/audit-log.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, generateKey, sql } from "../support/helpers.ts";
import { callRaw, mcpClient, serveMcpWithTools, testTool, textJson } from "./support.ts";

let t: TestApp;
let mcp: Awaited<ReturnType<typeof serveMcpWithTools>>;
let owner: Client;
let key: { key: string; keyId: string };
const clients: McpClient[] = [];

const PAY = "freezone_test_pay";
const db = () => t.app.runtime.orm.em.fork();
const approval = async (sid: string) => (await sql(t, "select * from mcp_approval where sid = ?", [sid]))[0];
const audits = async (target: string) =>
  (await sql(t, "select action, allowed, subject_id from user_audit_log where target_ref = ? order by sid", [target]))
    .map((r) => `${r.action}:${r.allowed}`)
    .sort(); // rows of one request share a millisecond: compared as a set
const replays = async (sid: string) =>
  (await sql(t, "select result_status from mcp_call_log where approval_id = ?", [sid])).map((r) => r.result_status);

/** The pay tool, writing an audit row (target_ref = its echo) before it runs: shows where a replay's writes go. */
function writingPayTool(): CatalogTool {
  const base = testTool("pay_write", { amountParam: "amount" });
  const run = base.entry.invoke;
  const entry: typeof base.entry = {
    ...base.entry,
    async invoke(ctx, raw) {
      const marker = { subjectId: ctx.caller?.userId ?? "", targetRef: String((raw as { echo?: string }).echo) };
      await writeAudit(
        ctx.em,
        { ...marker, action: "view_logs", targetType: "other", allowed: true, context: {} },
        ctx.now(),
      );
      return run(ctx, raw);
    },
  };
  return { ...base, entry };
}

/** A pay tool whose first run meets a busy database (a transient failure); later runs pass. */
let flakyFailures = 0;
function flakyPayTool(): CatalogTool {
  const base = testTool("pay_flaky", { amountParam: "amount" });
  const run = base.entry.invoke;
  return {
    ...base,
    entry: {
      ...base.entry,
      invoke(ctx, raw) {
        if (flakyFailures > 0) {
          flakyFailures -= 1;
          // What PostgreSQL answers past the lock timeout (lock_not_available).
          throw Object.assign(new Error("canceling statement due to lock timeout"), { code: "55P03" });
        }
        return run(ctx, raw);
      },
    },
  };
}

/** Asks for a payment over the approval threshold and returns the approval id. */
async function ask(amount = 80, k = key): Promise<string> {
  const reply = await callRaw(mcp.url, k.key, PAY, { amount, echo: "pay me", password: "secret-pass" });
  expect(reply.result.structuredContent).toMatchObject({ status: "pending_approval" });
  return reply.result.structuredContent.approval_id;
}

beforeAll(async () => {
  t = await startTestApp({ accessTokenTtlS: 7 * 24 * 3600 });
  mcp = await serveMcpWithTools(t.app.runtime, [
    testTool("pay", { amountParam: "amount" }),
    testTool("echo", { readOnly: true }),
    writingPayTool(),
    flakyPayTool(),
  ]);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await mcp.close();
  await t.close();
});
beforeEach(async () => {
  t.clock.set("2026-11-23T10:00:00.000Z");
  owner = await t.register(`owner${Math.random()}@example.org`);
  key = await generateKey(owner, { approval_threshold: 50 });
});

describe("asking for approval", () => {
  test("round trip with the SDK client: pending_approval, the owner approves, the call runs as the key", async () => {
    const client = await mcpClient(mcp.url, key.key);
    clients.push(client);
    const asked = await client.callTool({ name: PAY, arguments: { amount: 80, echo: "x" } });
    expect(asked.isError).toBeFalsy();
    const pending = asked.structuredContent as any;
    expect(pending).toEqual({
      status: "pending_approval",
      approval_id: expect.any(String),
      reason: "amount 80 EUR is over the approval threshold of 50 EUR",
      expires_at: "2026-11-23T11:00:00.000Z",
    });
    expect(textJson(asked)).toEqual(pending);
    const listed = await owner.rpc("mcpapprovalservice.list_pending", {});
    expect(listed.result.items).toHaveLength(1);
    expect(listed.result.items[0]).toMatchObject({
      sid: pending.approval_id,
      user_id: owner.userId,
      api_key_id: key.keyId,
      tool_name: PAY,
      rpc_method: "testservice.pay",
      arguments: JSON.stringify({ amount: 80, echo: "x" }),
      amount: 80,
      status: "pending",
    });
    // The agent can read its approvals through MCP too.
    const viaMcp = await client.callTool({
      name: "freezone_mcpapprovalservice_get",
      arguments: { approval_id: pending.approval_id },
    });
    expect((viaMcp.structuredContent as any).status).toBe("pending");

    t.clock.advance(60);
    const approved = await owner.rpc("mcpapprovalservice.approve", { approval_id: pending.approval_id });
    expect(approved.result).toMatchObject({
      status: "approved_executed",
      decided_at: "2026-11-23T10:01:00.000Z",
      decided_by: owner.userId,
      execution_error: null,
    });
    expect(JSON.parse(approved.result.result_json)).toEqual({
      user_id: owner.userId,
      api_key_id: key.keyId,
      echo: "x",
      amount: 80,
    });
    expect(await audits(pending.approval_id)).toEqual(["mcp_approval_approved:true", "mcp_approval_executed:true"]);
    const log = await sql(t, "select result_status, approval_id from mcp_call_log where api_key_id = ?", [key.keyId]);
    expect(log.filter((r) => r.approval_id === pending.approval_id)).toHaveLength(2);
    const spent = await sql(
      t,
      `select amount_eur::float8 as amount_eur from mcp_usage_counter where api_key_id = ? and "window" like 'day:%'`,
      [key.keyId],
    );
    expect(spent[0].amount_eur).toBe(80);
  });

  test("an approval-required pattern needs approval whatever the amount; arguments are stored in full, sealed", async () => {
    const k = await generateKey(owner, { approval_required_tools: "freezone_test_e*" });
    const reply = await callRaw(mcp.url, k.key, "freezone_test_echo", { echo: "hi", password: "secret-pass" });
    expect(reply.result.structuredContent.reason).toContain("freezone_test_e*");
    const row = await approval(reply.result.structuredContent.approval_id);
    expect(row.arguments).toMatch(/^enc:/);
    expect(row.arguments).not.toContain("secret-pass");
    const got = await owner.rpc("mcpapprovalservice.get", { approval_id: row.sid });
    expect(JSON.parse(got.result.arguments)).toEqual({ echo: "hi", password: "secret-pass" });
    expect(JSON.parse(got.result.arguments_summary)).toEqual({ echo: "hi", password: "[redacted]" });
  });

  test("amounts at or under the threshold run at once", async () => {
    expect((await callRaw(mcp.url, key.key, PAY, { amount: 50 })).result.structuredContent.amount).toBe(50);
    expect(await sql(t, "select * from mcp_approval where api_key_id = ?", [key.keyId])).toHaveLength(0);
  });
});

describe("deciding", () => {
  test("reject stores the reason; the call never runs and cannot be approved afterwards", async () => {
    const sid = await ask();
    const rejected = await owner.rpc("mcpapprovalservice.reject", { approval_id: sid, reason: "too much" });
    expect(rejected.result).toMatchObject({
      status: "rejected",
      decision_reason: "too much",
      decided_by: owner.userId,
    });
    const again = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(again.error).toMatchObject({ code: -32005, data: { type: "McpApprovalError", variant: "InvalidState" } });
    expect(await replays(sid)).toEqual(["success"]); // only the request itself
    expect(await audits(sid)).toEqual(["mcp_approval_approved:false", "mcp_approval_rejected:true"]);
  });

  test("an API key (and so an agent on /mcp) can read approvals but never decide them", async () => {
    const sid = await ask();
    const viaRpc = await t.rpc("mcpapprovalservice.approve", { approval_id: sid }, { "x-api-key": key.key });
    expect(viaRpc.error).toMatchObject({ code: -32002, data: { variant: "SessionRequired" } });
    const viaMcp = await callRaw(mcp.url, key.key, "freezone_mcpapprovalservice_reject", {
      approval_id: sid,
      reason: "x",
    });
    expect(JSON.parse(viaMcp.result.content[0].text)).toMatchObject({ variant: "SessionRequired" });
    const read = await callRaw(mcp.url, key.key, "freezone_mcpapprovalservice_list_pending", {});
    expect(read.result.structuredContent.items.map((i: any) => i.sid)).toEqual([sid]);
    expect((await approval(sid)).status).toBe("pending");
  });

  test("another user's approval is NotFound for get, approve and reject, and nothing changes", async () => {
    const sid = await ask();
    const mallory = await t.register(`mallory${Math.random()}@example.org`);
    for (const [method, params] of [
      ["mcpapprovalservice.get", { approval_id: sid }],
      ["mcpapprovalservice.approve", { approval_id: sid }],
      ["mcpapprovalservice.reject", { approval_id: sid, reason: "mine now" }],
    ] as const) {
      const r = await mallory.rpc(method, params);
      expect(r.error).toMatchObject({ code: -32003, data: { type: "McpApprovalError", variant: "NotFound" } });
    }
    expect((await approval(sid)).status).toBe("pending");
    expect(await replays(sid)).toEqual(["success"]);
  });

  test("approving twice runs the call once; two approvals at the same moment run it once", async () => {
    const sid = await ask();
    expect((await owner.rpc("mcpapprovalservice.approve", { approval_id: sid })).result.status).toBe(
      "approved_executed",
    );
    const second = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(second.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const other = await ask();
    const both = await Promise.all([
      owner.rpc("mcpapprovalservice.approve", { approval_id: other }),
      owner.rpc("mcpapprovalservice.approve", { approval_id: other }),
    ]);
    expect(both.filter((r) => r.result?.status === "approved_executed")).toHaveLength(1);
    expect(both.filter((r) => r.error?.data?.variant === "InvalidState")).toHaveLength(1);
    expect(await replays(sid)).toEqual(["success", "success"]);
    expect(await replays(other)).toEqual(["success", "success"]);
  });

  test("approve after expires_at is refused with Expired and the approval moves to expired", async () => {
    const sid = await ask();
    t.clock.advance(3600);
    const r = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(r.error).toMatchObject({ code: -32005, data: { type: "McpApprovalError", variant: "Expired" } });
    expect((await approval(sid)).status).toBe("expired");
    expect(await audits(sid)).toEqual(["mcp_approval_approved:false", "mcp_approval_expired:true"]);
    expect((await owner.rpc("mcpapprovalservice.list_pending", {})).result.items).toEqual([]);
  });
});

describe("replaying the approved call", () => {
  test("a failed dispatch keeps `approved` with execution_error; approving again retries without a second decision", async () => {
    const sid = await ask();
    await sql(t, "update api_key set is_active = false where sid = ?", [key.keyId]);
    t.clock.advance(60);
    const failed = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(failed.result).toMatchObject({ status: "approved", decided_at: "2026-11-23T10:01:00.000Z" });
    expect(failed.result.execution_error).toContain("KeyRevoked");
    expect(await audits(sid)).toEqual(["mcp_approval_approved:true", "mcp_approval_executed:false"]);
    await sql(t, "update api_key set is_active = true where sid = ?", [key.keyId]);
    t.clock.advance(60);
    const retried = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(retried.result).toMatchObject({
      status: "approved_executed",
      decided_at: "2026-11-23T10:01:00.000Z",
      execution_error: null,
    });
    expect(await replays(sid)).toEqual(["success", "success"]);
    // One decision, two executions, each saying its attempt (issue 29 item 14).
    expect(await audits(sid)).toEqual([
      "mcp_approval_approved:true",
      "mcp_approval_executed:false",
      "mcp_approval_executed:true",
    ]);
    const attempts = await sql(
      t,
      "select (context::jsonb->>'attempt')::int as attempt from user_audit_log where action = 'mcp_approval_executed' and target_ref = ? order by sid",
      [sid],
    );
    expect(attempts).toEqual([{ attempt: 1 }, { attempt: 2 }]);
  });

  test("the replay runs inside the approving call's transaction: a failed one leaves only the approval's own writes", async () => {
    const marker = `replay-${Math.random()}`;
    // Passes its dry run now; fails when replayed after 10:30.
    const args = { amount: 80, echo: marker, fail_after: "2026-11-23T10:30:00.000Z" };
    const asked = await callRaw(mcp.url, key.key, "freezone_test_pay_write", args);
    const sid: string = asked.result.structuredContent.approval_id;
    t.clock.set("2026-11-23T10:31:00.000Z");
    const failed = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(failed.result).toMatchObject({ status: "approved", decided_by: owner.userId });
    expect(failed.result.execution_error).toBe("InvalidInput: the test tool was asked to fail");
    expect((await approval(sid)).status).toBe("approved");
    // The replayed dispatch was a savepoint: its row is gone, its amount refunded; its log row and call count stay.
    expect(await count(t, "user_audit_log", "target_ref = ?", [marker])).toBe(0);
    expect(await replays(sid)).toEqual(["success", "error"]);
    const [day] = await sql(
      t,
      `select calls, amount_eur::float8 as amount_eur from mcp_usage_counter where api_key_id = ? and "window" like 'day:%'`,
      [key.keyId],
    );
    expect({ calls: Number(day.calls), amount_eur: day.amount_eur }).toEqual({ calls: 2, amount_eur: 0 });
    expect(await audits(sid)).toEqual(["mcp_approval_approved:true", "mcp_approval_executed:false"]);

    const passing = await callRaw(mcp.url, key.key, "freezone_test_pay_write", { amount: 80, echo: marker });
    const ok = await owner.rpc("mcpapprovalservice.approve", {
      approval_id: passing.result.structuredContent.approval_id,
    });
    expect(ok.result.status).toBe("approved_executed");
    expect(await count(t, "user_audit_log", "target_ref = ?", [marker])).toBe(1);
  });

  test("the replay checks the key's current policy again (approval aside)", async () => {
    const sid = await ask();
    await sql(t, "update api_key set blocked_tool_patterns = 'freezone_test_pay' where sid = ?", [key.keyId]);
    const blocked = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(blocked.result.status).toBe("approved");
    expect(blocked.result.execution_error).toContain("ScopeDenied");
    await sql(t, "update api_key set blocked_tool_patterns = null, daily_spending_limit = 60 where sid = ?", [
      key.keyId,
    ]);
    const over = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(over.result.execution_error).toContain("SpendingLimit");
    expect(await replays(sid)).toEqual(["success", "rejected", "rejected"]);
  });
});

describe("expiry sweep", () => {
  test("moves overdue pending approvals to expired once, with one audit row each", async () => {
    const stale = await ask();
    t.clock.advance(1800);
    const fresh = await ask();
    t.clock.advance(1801);
    const now = t.clock.now();
    const moved = await expireApprovals(db(), now);
    expect(moved).toContain(stale);
    expect(moved).not.toContain(fresh);
    expect(await expireApprovals(db(), now)).toEqual([]);
    expect((await approval(stale)).status).toBe("expired");
    expect((await approval(fresh)).status).toBe("pending");
    expect(await audits(stale)).toEqual(["mcp_approval_expired:true"]);
  });

  test("expire_stale is internal: refused from outside, even to an administrator", async () => {
    const admin = await t.admin();
    const r = await admin.rpc("mcpapprovalservice.expire_stale", {});
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "Internal" } });
  });
});

describe("administrator variants", () => {
  test("list and view without arguments; view audited; approve runs as the key, not the administrator", async () => {
    const sid = await ask();
    const rejectMe = await ask();
    const admin = await t.admin();
    const listed = await admin.rpc("mcpapprovalservice.admin_list", { status: "pending", user_id: owner.userId });
    expect(listed.result.items.map((i: any) => i.sid).sort()).toEqual([sid, rejectMe].sort());
    expect(listed.result.items.every((i: any) => i.arguments === null && i.result_json === null)).toBe(true);
    const viewed = await admin.rpc("mcpapprovalservice.admin_get", { approval_id: sid });
    expect(viewed.result).toMatchObject({ sid, arguments: null });
    const approved = await admin.rpc("mcpapprovalservice.admin_approve", { approval_id: sid });
    expect(approved.result).toMatchObject({ status: "approved_executed", decided_by: admin.userId, result_json: null });
    const stored = JSON.parse((await approval(sid)).result_json);
    expect(stored).toMatchObject({ user_id: owner.userId, api_key_id: key.keyId });
    const rejected = await admin.rpc("mcpapprovalservice.admin_reject", { approval_id: rejectMe, reason: "policy" });
    expect(rejected.result).toMatchObject({ status: "rejected", decision_reason: "policy" });
    expect(await audits(sid)).toEqual([
      "mcp_approval_admin_approved:true",
      "mcp_approval_admin_viewed:true",
      "mcp_approval_executed:true",
    ]);
    expect(await audits(rejectMe)).toEqual(["mcp_approval_admin_rejected:true"]);
  });

  test("a user is refused the administrator variants with AdminOnly", async () => {
    const sid = await ask();
    const r = await owner.rpc("mcpapprovalservice.admin_approve", { approval_id: sid });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect((await approval(sid)).status).toBe("pending");
  });
});

describe("an approval the owner can decide on (issue 32 item 11)", () => {
  test("the card names the key, the tool's title, the measured amount; the owner gets an inbox message and an email", async () => {
    const sid = await ask(80);
    const { result } = await owner.rpc("mcpapprovalservice.list_pending", {});
    expect(result.items[0]).toMatchObject({
      sid,
      api_key_id: key.keyId,
      api_key_name: "agent key",
      tool_name: PAY,
      tool_title: expect.any(String),
      amount: 80,
      retryable: false,
    });
    expect(result.items[0].tool_title.length).toBeGreaterThan(0);
    const [message] = await sql(t, "select * from user_message where user_id = ?", [owner.userId]);
    expect(message).toMatchObject({ category: "security", action_url: "/console/#/approvals", is_read: false });
    expect(message.title).toContain(result.items[0].tool_title);
    expect(message.body).toContain('"agent key"');
    expect(message.body).toContain("80");
    const [email] = await sql(t, "select * from email_outbox where to_email = ? and template = ?", [
      owner.email,
      "mcp_approval_requested",
    ]);
    expect(email).toMatchObject({ template: "mcp_approval_requested", status: "sent" });
    expect(email.body_text).toContain("/console/#/approvals");
  });

  test("retryable only for a transient failure: a busy database yes, a refusal (a revoked key) no", async () => {
    const reply = await callRaw(mcp.url, key.key, "freezone_test_pay_flaky", { amount: 80, echo: "x" });
    expect(reply.result?.structuredContent, JSON.stringify(reply)).toMatchObject({ status: "pending_approval" });
    const sid = reply.result.structuredContent.approval_id;
    flakyFailures = 1; // the approved run meets a busy database
    const failed = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(failed.result).toMatchObject({ status: "approved", retryable: true });
    expect(failed.result.execution_error).toMatch(/^DatabaseBusy: /);
    const retried = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(retried.result).toMatchObject({ status: "approved_executed", retryable: false });

    const refusedSid = await ask();
    await sql(t, "update api_key set is_active = false where sid = ?", [key.keyId]);
    const refused = await owner.rpc("mcpapprovalservice.approve", { approval_id: refusedSid });
    expect(refused.result.execution_error).toContain("KeyRevoked");
    expect(refused.result.retryable).toBe(false);
    await sql(t, "update api_key set is_active = true where sid = ?", [key.keyId]);
  });
});
