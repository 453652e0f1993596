import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { startFinanceApp } from "../support/entities.ts";
import { generateKey, sql } from "../support/helpers.ts";
import { approvalsOf, callLogOf, footprint, SCENARIOS, UNLIMITED } from "./spending-support.ts";
import { callRaw, type Served, serveOnPort } from "./support.ts";

// Issue 29 item 13 (seed 001 Events 3, Errors 3: "a denied or failed audited action is logged with allowed
// false"): an agent key's policy refusal of an audited method, on /mcp and on /rpc, writes the method's audit row
// with allowed false, as a session's refusal does; so does a schema failure of its arguments. The audited method
// here is paymentservice.initiate_renewal (renew_subscription, target the caller's user id, moves 270 USD).
let t: TestApp;
let admin: Client;
let served: Served;

beforeAll(async () => {
  t = await startFinanceApp({ paymentSweepIntervalS: 0 });
  t.clock.set("2026-11-23T10:00:00.000Z");
  admin = await t.admin();
  served = await serveOnPort(t.app.hono);
});
afterAll(async () => {
  await served.close();
  await t.close();
});

const RENEWAL = "paymentservice.initiate_renewal";
const RENEWAL_TOOL = "freezone_paymentservice_initiate_renewal";
const FEE_RATE = "pricingservice.get_shareholder_fee_rate";
const FEE = { company_type: "startup_fzc", shareholder_count: 4 };

const toolOf = (method: string) => t.app.runtime.registry.get(method)?.mcp.name ?? "";

/** A resident whose wallet pays a renewal, and the params of it. */
const renewal = () => SCENARIOS[RENEWAL]!({ t, admin });

/** Calls `method` as the key on /rpc or /mcp: the refusal's code and data (type, variant), or the result. */
async function callAs(via: "rpc" | "mcp", key: string, method: string, params: Record<string, unknown>) {
  if (via === "rpc") {
    const reply = await t.rpc(method, params, { "x-api-key": key });
    return { code: reply.error?.code ?? null, error: reply.error?.data ?? null, result: reply.result };
  }
  const reply = await callRaw(served.url, key, toolOf(method), params);
  if (reply.error) return { code: reply.error.code, error: reply.error.data ?? null, result: undefined };
  if (reply.result?.isError) return { code: null, error: JSON.parse(reply.result.content[0].text), result: undefined };
  return { code: null, error: null, result: reply.result?.structuredContent };
}

/** The audit rows a key's calls wrote (their context names the key). */
async function auditOf(keyId: string) {
  const rows = await sql(
    t,
    `select action, target_type, target_ref, allowed, context from user_audit_log where context::text like ? order by sid`,
    [`%${keyId}%`],
  );
  return rows.map(parsed);
}

const parsed = (row: Record<string, any>) => ({
  ...row,
  context: typeof row.context === "string" ? JSON.parse(row.context) : row.context,
});

/** The denial row of the renewal for `owner` called with `keyId` on `via`. */
const denial = (owner: Client, keyId: string, via: string, context: Record<string, unknown>) => ({
  action: "renew_subscription",
  target_type: "subscription",
  target_ref: owner.userId,
  allowed: false,
  context: { method: RENEWAL, via: "api_key", api_key_id: keyId, endpoint: via, ...context },
});

describe.each(["mcp", "rpc"] as const)("an audited method refused by the key's policy on /%s", (via) => {
  /** Runs the renewal as a key with `policy` (after `before`), and checks it is refused with nothing else written. */
  async function refusedRenewal(
    policy: Record<string, unknown>,
    variant: string,
    options: { params?: Record<string, unknown>; before?: (key: string) => Promise<void> } = {},
  ) {
    const p = await renewal();
    const key = await generateKey(p.owner, { ...UNLIMITED, ...policy });
    await options.before?.(key.key);
    const snapshot = await footprint(t);
    const out = await callAs(via, key.key, RENEWAL, options.params ?? p.params);
    expect(out.error ?? { variant: out.code }, JSON.stringify(out)).toMatchObject(
      variant === "-32602" ? {} : { variant },
    );
    if (variant === "-32602") expect(out.code).toBe(-32602);
    expect(await footprint(t)).toEqual(snapshot);
    expect(await approvalsOf(t, key.keyId)).toEqual([]);
    return { owner: p.owner, key, audit: await auditOf(key.keyId) };
  }

  test("scope: a read key's renewal writes one renew_subscription row, allowed false, reason key_policy", async () => {
    const { owner, key, audit } = await refusedRenewal({ mcp_scope: "read" }, "ScopeDenied");
    expect(audit).toEqual([denial(owner, key.keyId, via, { error: "ScopeDenied", reason: "key_policy" })]);
  });

  test("tool patterns: a blocked tool and one outside the allowed list each write one denial row", async () => {
    const blocked = await refusedRenewal({ blocked_tool_patterns: "freezone_paymentservice_*" }, "ScopeDenied");
    expect(blocked.audit).toEqual([
      denial(blocked.owner, blocked.key.keyId, via, { error: "ScopeDenied", reason: "key_policy" }),
    ]);
    const outside = await refusedRenewal({ allowed_tool_patterns: "freezone_pricingservice_*" }, "ScopeDenied");
    expect(outside.audit).toEqual([
      denial(outside.owner, outside.key.keyId, via, { error: "ScopeDenied", reason: "key_policy" }),
    ]);
  });

  test("call limit: the call over the hour's limit writes one denial row with the limit and window", async () => {
    const { owner, key, audit } = await refusedRenewal({ max_calls_per_hour: 1 }, "CallLimit", {
      // The hour's one call, of a method that is not audited: it writes no row.
      before: async (k) => expect((await callAs(via, k, FEE_RATE, FEE)).result).toBeDefined(),
    });
    expect(audit).toEqual([
      denial(owner, key.keyId, via, { error: "CallLimit", reason: "key_policy", limit: 1, window: "hour" }),
    ]);
    expect((await callLogOf(t, key.keyId)).map((r) => r.result_status)).toEqual(["success", "rejected"]);
  });

  test("spending limit where the money moves: one denial row, written after the call's rollback", async () => {
    const { owner, key, audit } = await refusedRenewal({ max_transaction_amount: 5 }, "SpendingLimit");
    expect(audit).toEqual([
      denial(owner, key.keyId, via, {
        error: "SpendingLimit",
        reason: "key_policy",
        limit: 5,
        window: "transaction",
      }),
    ]);
  });

  test("spending limit of a call parked by pattern whose amount alone passes it: one denial row", async () => {
    const policy = { approval_required_tools: RENEWAL_TOOL, daily_spending_limit: 10 };
    const { owner, key, audit } = await refusedRenewal(policy, "SpendingLimit");
    expect(audit).toEqual([
      denial(owner, key.keyId, via, { error: "SpendingLimit", reason: "key_policy", limit: 10, window: "day" }),
    ]);
  });

  test("a call parked by pattern whose dry run fails writes that failure's denial row", async () => {
    // A user without a residence has nothing to renew: the dry run fails, nothing is parked.
    const owner = await t.register(`norenewal${Math.random()}@example.org`);
    const key = await generateKey(owner, { ...UNLIMITED, approval_required_tools: RENEWAL_TOOL });
    const snapshot = await footprint(t);
    const out = await callAs(via, key.key, RENEWAL, { plan: "3_years" });
    expect(out.error).toMatchObject({ variant: expect.any(String) });
    expect(await footprint(t)).toEqual(snapshot);
    expect(await approvalsOf(t, key.keyId)).toEqual([]);
    expect(await auditOf(key.keyId)).toEqual([denial(owner, key.keyId, via, { error: out.error.variant })]);
  });

  test("arguments that fail the schema write one denial row with the error code", async () => {
    const { owner, key, audit } = await refusedRenewal({}, "-32602", { params: { plan: "3_years", bogus: 1 } });
    expect(audit).toEqual([denial(owner, key.keyId, via, { error: -32602 })]);
  });

  test("a call parked over the approval threshold is not denied: no audit row until it runs", async () => {
    const p = await renewal();
    const key = await generateKey(p.owner, { ...UNLIMITED, approval_threshold: 1 });
    const out = await callAs(via, key.key, RENEWAL, p.params);
    if (via === "rpc") expect(out.error).toMatchObject({ variant: "ApprovalRequired" });
    else expect(out.result).toMatchObject({ status: "pending_approval" });
    expect(await approvalsOf(t, key.keyId)).toEqual([expect.objectContaining({ status: "pending" })]);
    expect(await auditOf(key.keyId)).toEqual([]);
  });

  test("a method that is not audited writes no audit row for any refusal", async () => {
    const p = await renewal();
    const key = await generateKey(p.owner, { ...UNLIMITED, blocked_tool_patterns: toolOf(FEE_RATE) });
    expect((await callAs(via, key.key, FEE_RATE, FEE)).error).toMatchObject({ variant: "ScopeDenied" });
    expect((await callAs(via, key.key, FEE_RATE, { ...FEE, bogus: 1 })).code).toBe(-32602);
    const limited = await generateKey(p.owner, { ...UNLIMITED, max_calls_per_hour: 1 });
    expect((await callAs(via, limited.key, FEE_RATE, FEE)).result).toBeDefined();
    expect((await callAs(via, limited.key, FEE_RATE, FEE)).error).toMatchObject({ variant: "CallLimit" });
    expect(await auditOf(key.keyId)).toEqual([]);
    expect(await auditOf(limited.keyId)).toEqual([]);
  });
});

test("a session's refusal of the same method writes the same row, without the key's fields", async () => {
  const p = await renewal();
  const reply = await p.owner.rpc(RENEWAL, { plan: "3_years", bogus: 1 });
  expect(reply.error?.code).toBe(-32602);
  const rows = await sql(
    t,
    `select action, target_ref, allowed, context from user_audit_log where subject_id = ? and action = ?`,
    [p.owner.userId, "renew_subscription"],
  );
  expect(rows.map(parsed)).toEqual([
    {
      action: "renew_subscription",
      target_ref: p.owner.userId,
      allowed: false,
      context: { method: RENEWAL, via: "session", error: -32602 },
    },
  ]);
});
