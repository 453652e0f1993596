import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { SandboxMobileMoney } from "../../src/integrations/payments/sandbox-mobile-money.ts";
import { SandboxPayoutProvider } from "../../src/integrations/payouts/sandbox.ts";
import type { Client, TestApp } from "../support/app.ts";
import { member, startFinanceApp } from "../support/entities.ts";
import { generateKey, sql } from "../support/helpers.ts";
import { balanceOf, fund, residentAccount } from "../treasury/support.ts";
import { approvalsOf, callLogOf, footprint, type Prepared, SCENARIOS, UNLIMITED } from "./spending-support.ts";
import { callRaw, type Served, serveOnPort } from "./support.ts";

// Issue 27, "an approval worth asking for": a call parked by an approval-required pattern is first run as a dry
// run in a transaction that is rolled back, with the providers in their dry-run mode. A call bound to fail answers
// its error and parks nothing; the approval carries the measured amount; nothing of the dry run is left behind
// (this file runs on PGlite, and on PostgreSQL with DATABASE_URL).
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
afterEach(() => {
  vi.restoreAllMocks();
});

const prepare = (method: string): Promise<Prepared> => SCENARIOS[method]!({ t, admin });
const toolOf = (method: string) => t.app.runtime.registry.get(method)?.mcp.name ?? "";
const held = (method: string, extra: Record<string, unknown> = {}) => ({
  ...UNLIMITED,
  approval_required_tools: toolOf(method),
  ...extra,
});

describe("a call bound to fail is answered, never parked", () => {
  test("a deduct over the balance answers InsufficientFunds on /rpc and /mcp; no approval, nothing written", async () => {
    const p = await prepare("creditservice.deduct");
    const key = await generateKey(p.owner, held("creditservice.deduct"));
    const params = { ...p.params, amount: 5000 };
    const before = await footprint(t);
    const rpc = await t.rpc("creditservice.deduct", params, { "x-api-key": key.key });
    expect(rpc.error).toMatchObject({ code: -32006, data: { type: "CreditError", variant: "InsufficientFunds" } });
    const mcp = await callRaw(served.url, key.key, toolOf("creditservice.deduct"), params);
    expect(mcp.result.isError).toBe(true);
    expect(JSON.parse(mcp.result.content[0].text)).toMatchObject({ variant: "InsufficientFunds" });
    expect(await approvalsOf(t, key.keyId)).toEqual([]);
    expect(await footprint(t)).toEqual(before);
    expect((await callLogOf(t, key.keyId)).map((r) => r.result_status)).toEqual(["error", "error"]);
  });

  test("the reported key, held on deduct: a deduct whose amount alone passes the limit answers SpendingLimit", async () => {
    const p = await prepare("creditservice.deduct");
    const key = await generateKey(p.owner, held("creditservice.deduct", { max_transaction_amount: 5 }));
    const reply = await t.rpc("creditservice.deduct", p.params, { "x-api-key": key.key });
    expect(reply.error).toMatchObject({ code: -32008, data: { variant: "SpendingLimit", window: "transaction" } });
    expect(await approvalsOf(t, key.keyId)).toEqual([]);
    expect(await callLogOf(t, key.keyId)).toEqual([expect.objectContaining({ result_status: "rejected", amount: 30 })]);
  });

  test("a company renewal for a plan that does not exist is refused at once, not parked", async () => {
    const p = await prepare("paymentservice.initiate_company_renewal");
    const key = await generateKey(p.owner, held("paymentservice.initiate_company_renewal"));
    const reply = await t.rpc(
      "paymentservice.initiate_company_renewal",
      { ...p.params, plan: "no_such_plan" },
      { "x-api-key": key.key },
    );
    expect(reply.error?.data).toMatchObject({ type: "PaymentError", variant: "InvalidInput" });
    expect(await approvalsOf(t, key.keyId)).toEqual([]);
  });
});

describe("a parked call carries what its dry run measured, and leaves nothing behind", () => {
  test("a registration held by pattern: the approval carries its price; no company, role, ledger row or id", async () => {
    const p = await prepare("companyservice.create");
    const key = await generateKey(p.owner, held("companyservice.create"));
    const before = await footprint(t);
    const reply = await callRaw(served.url, key.key, toolOf("companyservice.create"), p.params);
    expect(reply.result.structuredContent).toMatchObject({ status: "pending_approval" });
    expect(await footprint(t)).toEqual(before);
    const [approval] = await approvalsOf(t, key.keyId);
    expect(approval.amount).toBeGreaterThan(0);
    const wallet = await p.balance();
    const decided = await p.owner.rpc("mcpapprovalservice.approve", { approval_id: approval.sid });
    expect(decided.result?.status).toBe("approved_executed");
    expect(Math.round((wallet - (await p.balance())) * 100) / 100).toBe(approval.amount);
  });

  test("an external transfer held by pattern never reaches the payout provider until it is approved", async () => {
    const submit = vi.spyOn(SandboxPayoutProvider.prototype, "submit");
    const p = await prepare("treasuryoperationsservice.initiate_external_transfer");
    const key = await generateKey(p.owner, held("treasuryoperationsservice.initiate_external_transfer"));
    const before = await footprint(t);
    const reply = await t.rpc("treasuryoperationsservice.initiate_external_transfer", p.params, {
      "x-api-key": key.key,
    });
    expect(reply.error?.data).toMatchObject({ variant: "ApprovalRequired" });
    expect(submit).not.toHaveBeenCalled();
    expect(await footprint(t)).toEqual(before);
    const [approval] = await approvalsOf(t, key.keyId);
    // The amount and the provider's fee, both leaving the account.
    expect(approval.amount).toBeGreaterThanOrEqual(40);
    const balance = await p.balance();
    const decided = await p.owner.rpc("mcpapprovalservice.approve", { approval_id: approval.sid });
    expect(decided.result?.status).toBe("approved_executed");
    expect(submit).toHaveBeenCalledTimes(1);
    expect(Math.round((balance - (await p.balance())) * 100) / 100).toBe(approval.amount);
  });

  test("a mobile-money top-up held by pattern: no order at the provider, no payment row, amount 0", async () => {
    const createOrder = vi.spyOn(SandboxMobileMoney.prototype, "createOrder");
    const owner = await t.register(`topup${Math.random()}@example.org`);
    const key = await generateKey(owner, {
      ...UNLIMITED,
      approval_required_tools: "freezone_creditservice_initiate_topup",
    });
    const before = await footprint(t);
    const reply = await t.rpc(
      "creditservice.initiate_topup",
      { amount: 20, provider: "mobilepay" },
      { "x-api-key": key.key },
    );
    expect(reply.error?.data).toMatchObject({ variant: "ApprovalRequired" });
    expect(createOrder).not.toHaveBeenCalled();
    expect(await footprint(t)).toEqual(before);
    expect(await approvalsOf(t, key.keyId)).toEqual([expect.objectContaining({ amount: 0 })]);
  });
});

describe("concurrency", () => {
  test("two calls of one key, each under the daily limit but together over it: exactly one passes", async () => {
    const p = await prepare("creditservice.deduct");
    // 7 USD is 6.44 EUR: one fits in 10 EUR a day, two do not.
    const key = await generateKey(p.owner, { ...UNLIMITED, daily_spending_limit: 10 });
    const before = await p.balance();
    const params = { ...p.params, amount: 7 };
    const replies = await Promise.all([
      t.rpc("creditservice.deduct", params, { "x-api-key": key.key }),
      callRaw(served.url, key.key, toolOf("creditservice.deduct"), params),
    ]);
    const passed = [replies[0].result !== undefined, replies[1].result?.isError !== true];
    expect(passed.filter(Boolean)).toHaveLength(1);
    expect(await p.balance()).toBe(before - 7);
    const [day] = await sql(
      t,
      `select amount_eur::float8 as eur from mcp_usage_counter where api_key_id = ? and "window" like 'day:%'`,
      [key.keyId],
    );
    expect(day.eur).toBe(6.44);
  });

  test("the same from two different treasury accounts (no shared row but the key's counter): exactly one passes", async () => {
    const m = await member(t);
    const [a, b, to] = [await residentAccount(m), await residentAccount(m), await residentAccount(m)];
    await fund(admin, a, 100);
    await fund(admin, b, 100);
    const key = await generateKey(m.client, { ...UNLIMITED, daily_spending_limit: 10 });
    const transfer = (from: string) => ({
      from_account_id: from,
      to_account_id: to.sid,
      amount: 6,
      currency: "EUR",
      initiated_by: m.resident,
    });
    const replies = await Promise.all([
      t.rpc("treasuryoperationsservice.initiate_transfer", transfer(a.sid), { "x-api-key": key.key }),
      t.rpc("treasuryoperationsservice.initiate_transfer", transfer(b.sid), { "x-api-key": key.key }),
    ]);
    expect(replies.filter((r) => r.result !== undefined)).toHaveLength(1);
    expect(replies.find((r) => r.error)?.error?.data).toMatchObject({ variant: "SpendingLimit", window: "day" });
    expect((await balanceOf(t, a.sid)).balance + (await balanceOf(t, b.sid)).balance).toBe(194);
    expect((await balanceOf(t, to.sid)).balance).toBe(6);
  });
});
