import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SandboxFxProvider, toEur } from "../../src/integrations/fx/index.ts";
import type { Client, TestApp } from "../support/app.ts";
import { startFinanceApp } from "../support/entities.ts";
import { generateKey } from "../support/helpers.ts";
import {
  approvalsOf,
  callLogOf,
  declaredSpending,
  type Prepared,
  SCENARIOS,
  UNLIMITED,
  UNREACHABLE,
} from "./spending-support.ts";

// Issue 27, table-driven: every method the generated registry marks x-spends is run with a limited agent key on
// /rpc; a method declared later is picked up here and fails until it has a scenario (or a reason it is unreachable).
// What moved is measured on the balance the money leaves, never taken from the params.
let t: TestApp;
let admin: Client;
const fx = new SandboxFxProvider();

beforeAll(async () => {
  t = await startFinanceApp({ paymentSweepIntervalS: 0 });
  t.clock.set("2026-11-23T10:00:00.000Z");
  admin = await t.admin();
});
afterAll(() => t.close());

const declared = () => declaredSpending(t.app.runtime.registry).map((e) => e.name);
const asKey = (key: string) => (method: string, params: unknown) => t.rpc(method, params, { "x-api-key": key });

/** The scenario's state, and the amount (in the balance's currency) and EUR figure a session's run would move. */
async function prepare(method: string): Promise<Prepared> {
  const scenario = SCENARIOS[method];
  if (!scenario) throw new Error(`${method} is declared x-spends: add a scenario to test/mcp/spending-support.ts`);
  return scenario({ t, admin });
}

test("every x-spends method has a scenario or a reason no agent key reaches it, and nothing else does", async () => {
  const covered = [...Object.keys(SCENARIOS), ...Object.keys(UNREACHABLE)].sort();
  expect(covered).toEqual(declared());
  for (const method of Object.keys(UNREACHABLE)) {
    const entry = t.app.runtime.registry.get(method);
    expect(entry?.internal || entry?.auth === "admin" || entry?.auth === "session", method).toBe(true);
  }
});

describe.each(Object.keys(SCENARIOS))("%s", (method) => {
  test("unlimited: runs, and the call log records the amount that left the balance", async () => {
    const p = await prepare(method);
    const key = await generateKey(p.owner, UNLIMITED);
    const before = await p.balance();
    const reply = await asKey(key.key)(method, p.params);
    expect(reply.error, JSON.stringify(reply.error)).toBeUndefined();
    const moved = Math.round((before - (await p.balance())) * 100) / 100;
    expect(moved).toBeGreaterThan(0);
    const [row] = await callLogOf(t, key.keyId);
    expect(row).toMatchObject({ result_status: "success", amount: moved });
    expect(row.amount_eur).toBe(await toEur(fx, moved, p.currency ?? "USD", t.clock.now()));
  });

  test("over the per-transaction limit: SpendingLimit, nothing moved, the real amount logged", async () => {
    const p = await prepare(method);
    const key = await generateKey(p.owner, { ...UNLIMITED, max_transaction_amount: 1 });
    const before = await p.balance();
    const reply = await asKey(key.key)(method, p.params);
    expect(reply.error).toMatchObject({ code: -32008, data: { type: "ApiKeyError", variant: "SpendingLimit" } });
    expect(await p.balance()).toBe(before);
    const [row] = await callLogOf(t, key.keyId);
    expect(row.result_status).toBe("rejected");
    expect(row.amount).toBeGreaterThan(1);
    expect(await approvalsOf(t, key.keyId)).toEqual([]);
  });

  test("over the approval threshold: parked with the measured amount; the approved replay moves it once", async () => {
    const p = await prepare(method);
    const key = await generateKey(p.owner, { ...UNLIMITED, approval_threshold: 1 });
    const before = await p.balance();
    const reply = await asKey(key.key)(method, p.params);
    expect(reply.error).toMatchObject({ code: -32010, data: { variant: "ApprovalRequired" } });
    expect(await p.balance()).toBe(before);
    const [approval] = await approvalsOf(t, key.keyId);
    expect(approval).toMatchObject({ rpc_method: method, status: "pending" });
    expect(approval.amount).toBeGreaterThan(1);
    const decided = await p.owner.rpc("mcpapprovalservice.approve", { approval_id: approval.sid });
    expect(decided.result, JSON.stringify(decided.result ?? decided.error)).toMatchObject({
      status: "approved_executed",
    });
    expect(Math.round((before - (await p.balance())) * 100) / 100).toBe(approval.amount);
    const again = await p.owner.rpc("mcpapprovalservice.approve", { approval_id: approval.sid });
    expect(again.error?.data).toMatchObject({ variant: "InvalidState" });
    expect(Math.round((before - (await p.balance())) * 100) / 100).toBe(approval.amount);
    const log = await callLogOf(t, key.keyId);
    expect(log.map((r) => [r.result_status, r.amount])).toEqual([
      ["success", approval.amount],
      ["success", approval.amount],
    ]);
    expect(log[1].amount_eur).toBe(await toEur(fx, approval.amount, p.currency ?? "USD", t.clock.now()));
  });
});
