import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { companyData } from "../company-service/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { startFinanceApp } from "../support/entities.ts";
import { generateKey, sql } from "../support/helpers.ts";
import { approvalsOf, callLogOf, footprint, type Prepared, SCENARIOS, UNLIMITED } from "./spending-support.ts";
import { callRaw, type Served, serveOnPort } from "./support.ts";

// Issue 27's report: an agent key with max_transaction_amount 5, daily_spending_limit 10 and approval_threshold 1,
// held on creditservice.deduct, ran two renewals (270 USD each) and a company registration at once, with no
// approval and 0 in the call log. Each of those calls (and pay_and_activate, activate_resident, a treasury
// transfer) is now refused where its money moves, on /mcp and on /rpc, with nothing written but its bookkeeping
// and the real amount logged; under a threshold-only key it is parked with that amount.
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

const ISSUE_KEY = {
  ...UNLIMITED,
  max_transaction_amount: 5,
  daily_spending_limit: 10,
  approval_threshold: 1,
  approval_required_tools: "freezone_creditservice_deduct",
};
const REPORTED = [
  "paymentservice.initiate_renewal",
  "paymentservice.initiate_company_renewal",
  "companyservice.create",
  "entitydraftservice.pay_and_activate",
  "creditservice.activate_resident",
  "treasuryoperationsservice.initiate_transfer",
];

const prepare = (method: string): Promise<Prepared> => SCENARIOS[method]!({ t, admin });
const toolOf = (method: string) => t.app.runtime.registry.get(method)?.mcp.name ?? "";

/** What the call moves when a session makes it (a fresh copy of the scenario): the real amount. */
async function realAmount(method: string): Promise<number> {
  const p = await prepare(method);
  const before = await p.balance();
  const reply = await p.owner.rpc(method, p.params);
  expect(reply.error, JSON.stringify(reply.error)).toBeUndefined();
  return Math.round((before - (await p.balance())) * 100) / 100;
}

/** Calls `method` as the key on /rpc or /mcp: the refusal's data (type, variant), or the pending approval. */
async function callAs(via: "rpc" | "mcp", key: string, method: string, params: Record<string, unknown>) {
  if (via === "rpc") {
    const reply = await t.rpc(method, params, { "x-api-key": key });
    return { error: reply.error?.data, code: reply.error?.code, pending: null };
  }
  const reply = await callRaw(served.url, key, toolOf(method), params);
  if (reply.result?.isError) return { error: JSON.parse(reply.result.content[0].text), code: null, pending: null };
  return { error: null, code: null, pending: reply.result?.structuredContent };
}

test("the reported prices: the renewals cost 270 USD each", async () => {
  expect(await realAmount("paymentservice.initiate_renewal")).toBe(270);
  expect(await realAmount("paymentservice.initiate_company_renewal")).toBe(270);
});

describe.each(["rpc", "mcp"] as const)("the reported key on /%s", (via) => {
  test.each(REPORTED)("%s answers SpendingLimit, writes nothing else, logs the real amount", async (method) => {
    const real = await realAmount(method);
    const p = await prepare(method);
    const key = await generateKey(p.owner, ISSUE_KEY);
    const before = await footprint(t);
    const out = await callAs(via, key.key, method, p.params);
    expect(out.error).toMatchObject({ type: "ApiKeyError", variant: "SpendingLimit" });
    if (via === "rpc") expect(out.code).toBe(-32008);
    expect(await footprint(t)).toEqual(before);
    expect(await approvalsOf(t, key.keyId)).toEqual([]);
    const audit = await sql(t, `select allowed from user_audit_log where context::text like ?`, [`%${key.keyId}%`]);
    expect(audit.every((r) => r.allowed === false)).toBe(true);
    const log = await callLogOf(t, key.keyId);
    expect(log).toEqual([expect.objectContaining({ result_status: "rejected", amount: real })]);
    expect(log[0].amount_eur).toBeGreaterThan(5);
  });

  test.each(REPORTED)("%s under a threshold-only key is parked with the real amount", async (method) => {
    const real = await realAmount(method);
    const p = await prepare(method);
    const key = await generateKey(p.owner, { ...UNLIMITED, approval_threshold: 1 });
    const before = await footprint(t);
    const out = await callAs(via, key.key, method, p.params);
    if (via === "rpc")
      expect(out.error).toMatchObject({ variant: "ApprovalRequired", approval_id: expect.any(String) });
    else expect(out.pending).toMatchObject({ status: "pending_approval", approval_id: expect.any(String) });
    expect(await footprint(t)).toEqual(before);
    expect(await approvalsOf(t, key.keyId)).toEqual([expect.objectContaining({ amount: real, status: "pending" })]);
    expect(await callLogOf(t, key.keyId)).toEqual([
      expect.objectContaining({ result_status: "success", amount: real }),
    ]);
  });
});

test("the reported calls at once (renewal on /rpc and /mcp, company renewal, registration): all refused", async () => {
  const p = await prepare("paymentservice.initiate_company_renewal");
  const [own] = await sql(t, `select resident_id from digital_resident where user_id = ?`, [p.owner.userId]);
  const key = await generateKey(p.owner, ISSUE_KEY);
  const before = await footprint(t);
  const headers = { "x-api-key": key.key };
  const replies = await Promise.all([
    t.rpc("paymentservice.initiate_renewal", { plan: "3_years" }, headers),
    callRaw(served.url, key.key, toolOf("paymentservice.initiate_renewal"), { plan: "3_years" }),
    t.rpc("paymentservice.initiate_company_renewal", p.params, headers),
    t.rpc("companyservice.create", { data: companyData(own.resident_id) }, headers),
  ]);
  expect(replies[0].error?.data?.variant).toBe("SpendingLimit");
  expect(JSON.parse(replies[1].result.content[0].text).variant).toBe("SpendingLimit");
  expect(replies[2].error?.data?.variant).toBe("SpendingLimit");
  expect(replies[3].error?.data?.variant).toBe("SpendingLimit");
  expect(await footprint(t)).toEqual(before);
  const log = await callLogOf(t, key.keyId);
  expect(log.map((r) => r.result_status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
  // Two resident renewals and the company renewal at 270 USD each, the registration at its own price.
  expect(log.filter((r) => r.amount === 270)).toHaveLength(3);
  expect(log.every((r) => r.amount_eur > 5)).toBe(true);
  const [day] = await sql(
    t,
    `select amount_eur::float8 as eur from mcp_usage_counter where api_key_id = ? and "window" like 'day:%'`,
    [key.keyId],
  );
  expect(day?.eur ?? 0).toBe(0);
});

test("unlimited keys still run the reported calls, and the call log holds their real amount", async () => {
  const p = await prepare("companyservice.create");
  const key = await generateKey(p.owner, UNLIMITED);
  const before = await p.balance();
  expect((await t.rpc("companyservice.create", p.params, { "x-api-key": key.key })).error).toBeUndefined();
  const moved = Math.round((before - (await p.balance())) * 100) / 100;
  expect(await callLogOf(t, key.keyId)).toEqual([expect.objectContaining({ result_status: "success", amount: moved })]);
});
