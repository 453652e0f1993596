import { expect, test } from "vitest";
import { PASSWORD } from "../support/app.ts";
import { expectReached } from "../support/reached.ts";
import { fundAccount, journeyCast, openResidentAccount, residentBalance, signInAgain, type Zone } from "./support.ts";

// Seed 000 "MCP approval" and seed 001 agent keys: an owner's personal API key with MCP scope and an approval
// policy (threshold 50 EUR) lets an agent call tools on /mcp. A transfer over the threshold is parked, not run; the
// owner approves it in the owner's session and it runs as the key, moving exactly the amount; a rejected one never
// runs; one whose replay fails stays `approved` with the error and runs on a second approve once the cause is fixed;
// an unanswered one expires after an hour. Public API only (see support.ts); the agent speaks MCP over HTTP.

expectReached({
  McpApprovalStatus: ["pending", "approved", "approved_executed", "rejected", "expired"],
  McpCallResultStatus: ["success", "error", "rejected"],
  TreasuryAccountKind: ["bank_account"],
});

const cast = journeyCast({
  alice: { first_name: "Alice", last_name: "Agentowner" },
  bob: { first_name: "Bob", last_name: "Payee" },
});

const STEPS = [
  "the owner mints an agent key (readwrite MCP, approval above 50 EUR)",
  "the owner's EUR account is funded; the payee opens one",
  "a transfer of 30 runs at once",
  "a transfer of 150, over the key's 100 EUR per-call limit, is refused outright",
  "a transfer of 80 is parked for approval; nothing moves",
  "the owner approves in her session: it runs as the key",
  "a second parked transfer is rejected with a reason: it never runs",
  "a parked transfer whose replay fails stays approved with the error",
  "the cause fixed, a second approve runs it without a new decision",
  "an unanswered approval expires after an hour",
  "the owner's call log shows what the agent did",
] as const;

let calls = 0;

/** One tools/call on /mcp with the agent's key, as an MCP client sends it (stateless, JSON answer). */
async function callTool(zone: Zone, key: string, name: string, args: Record<string, unknown>) {
  calls += 1;
  const r = await zone.t.post(
    "/mcp",
    { jsonrpc: "2.0", id: calls, method: "tools/call", params: { name, arguments: args } },
    { "x-api-key": key, accept: "application/json, text/event-stream" },
  );
  expect(r.status).toBe(200);
  return r.body.result as { isError?: boolean; structuredContent: any };
}

const TRANSFER = "freezone_treasuryoperationsservice_initiate_transfer";

test(`agent approval: a call parked, approved in the owner's session, executed; a rejection (${STEPS.length} steps)`, async () => {
  const { zone, alice, bob } = cast;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);
  zone.t.clock.set("2026-12-01T09:00:00.000Z");
  await signInAgain(zone, alice, bob);

  step("the owner mints an agent key (readwrite MCP, approval above 50 EUR)");
  const minted = await alice.client.callOk("apikeyservice.generate_personal", {
    name: "bookkeeping agent",
    password: PASSWORD,
    mcp_scope: "readwrite",
    approval_threshold: 50,
  });
  const key = minted.api_key;
  const listed = await alice.client.callOk("apikeyservice.list_personal");
  expect(listed.items.find((k) => k.key_id === minted.key_id)).toMatchObject({
    mcp_scope: "readwrite",
    approval_threshold: 50,
  });

  step("the owner's EUR account is funded; the payee opens one");
  const from = await openResidentAccount(alice, "EUR");
  await fundAccount(zone, from, 100, "EUR");
  const to = await openResidentAccount(bob, "EUR");
  const transfer = (amount: number, reference: string) => ({
    from_account_id: from,
    to_account_id: to,
    amount,
    currency: "EUR",
    initiated_by: alice.residentId,
    reference,
  });
  const balances = async () => [await residentBalance(alice, from), await residentBalance(bob, to)];
  expect(await balances()).toEqual([100, 0]);

  step("a transfer of 30 runs at once");
  const small = await callTool(zone, key, TRANSFER, transfer(30, "agent: small"));
  expect(small.isError).toBeFalsy();
  expect(small.structuredContent).toMatchObject({ status: "completed", amount: 30 });
  expect(await balances()).toEqual([70, 30]);

  step("a transfer of 150, over the key's 100 EUR per-call limit, is refused outright");
  // The owner tops the account up first: the refusal is the key's, not the account's.
  await fundAccount(zone, from, 100, "EUR");
  const tooBig = await callTool(zone, key, TRANSFER, transfer(150, "agent: too big"));
  expect(tooBig.isError).toBe(true);
  expect(tooBig.structuredContent).toBeUndefined();
  expect(await balances()).toEqual([170, 30]);
  expect((await alice.client.callOk("mcpapprovalservice.list_pending")).items).toEqual([]);

  step("a transfer of 80 is parked for approval; nothing moves");
  const parked = await callTool(zone, key, TRANSFER, transfer(80, "agent: rent"));
  expect(parked.structuredContent).toMatchObject({
    status: "pending_approval",
    reason: "amount 80 EUR is over the approval threshold of 50 EUR",
    expires_at: "2026-12-01T10:00:00.000Z",
  });
  const approvalId: string = parked.structuredContent.approval_id;
  expect(await balances()).toEqual([170, 30]);
  const pending = await alice.client.callOk("mcpapprovalservice.list_pending");
  expect(pending.items.map((a) => [a.sid, a.tool_name, a.amount, a.status])).toEqual([
    [approvalId, TRANSFER, 80, "pending"],
  ]);
  // Someone else's session cannot see or decide it.
  const foreign = await bob.client.call("mcpapprovalservice.approve", { approval_id: approvalId });
  expect("error" in foreign && foreign.error.code).toBe(-32003);

  step("the owner approves in her session: it runs as the key");
  zone.t.clock.advance(60);
  const approved = await alice.client.callOk("mcpapprovalservice.approve", { approval_id: approvalId });
  expect(approved).toMatchObject({
    status: "approved_executed",
    decided_at: "2026-12-01T09:01:00.000Z",
    execution_error: null,
  });
  expect(JSON.parse(approved.result_json ?? "null")).toMatchObject({ status: "completed", amount: 80 });
  expect(await balances()).toEqual([90, 110]);
  const twice = await alice.client.call("mcpapprovalservice.approve", { approval_id: approvalId });
  expect("error" in twice).toBe(true);
  expect(await balances()).toEqual([90, 110]);

  step("a second parked transfer is rejected with a reason: it never runs");
  const unwanted = await callTool(zone, key, TRANSFER, transfer(60, "agent: unknown"));
  const unwantedId: string = unwanted.structuredContent.approval_id;
  const rejected = await alice.client.callOk("mcpapprovalservice.reject", {
    approval_id: unwantedId,
    reason: "I do not know this payee",
  });
  expect(rejected).toMatchObject({ status: "rejected", decision_reason: "I do not know this payee" });
  expect("error" in (await alice.client.call("mcpapprovalservice.approve", { approval_id: unwantedId }))).toBe(true);
  expect(await balances()).toEqual([90, 110]);

  step("a parked transfer whose replay fails stays approved with the error");
  const late = await callTool(zone, key, TRANSFER, transfer(70, "agent: supplies"));
  const lateId: string = late.structuredContent.approval_id;
  // Meanwhile the owner spends from the account herself, so 70 is no longer there when the replay runs.
  await alice.client.callOk("treasuryoperationsservice.initiate_transfer", transfer(50, "owner: groceries"));
  expect(await balances()).toEqual([40, 160]);
  const failed = await alice.client.callOk("mcpapprovalservice.approve", { approval_id: lateId });
  expect(failed.status).toBe("approved");
  expect(failed.execution_error).toEqual(expect.any(String));
  expect(await balances()).toEqual([40, 160]);

  step("the cause fixed, a second approve runs it without a new decision");
  await fundAccount(zone, from, 50, "EUR");
  const resumed = await alice.client.callOk("mcpapprovalservice.approve", { approval_id: lateId });
  expect(resumed).toMatchObject({ status: "approved_executed", execution_error: null, decided_at: failed.decided_at });
  expect(await balances()).toEqual([20, 230]);

  step("an unanswered approval expires after an hour");
  await fundAccount(zone, from, 100, "EUR");
  const forgotten = await callTool(zone, key, TRANSFER, transfer(55, "agent: forgotten"));
  const forgottenId: string = forgotten.structuredContent.approval_id;
  zone.t.clock.advance(3601);
  await signInAgain(zone, alice, bob);
  // Approving it now is too late (the sweep would have moved it too): Expired, and it is expired from then on.
  const tooLate = await alice.client.call("mcpapprovalservice.approve", { approval_id: forgottenId });
  expect("error" in tooLate && tooLate.error.data?.variant).toBe("Expired");
  const expired = await alice.client.callOk("mcpapprovalservice.get", { approval_id: forgottenId });
  expect(expired).toMatchObject({ status: "expired", result_json: null });
  expect((await alice.client.callOk("mcpapprovalservice.list_pending")).items).toEqual([]);
  expect(await balances()).toEqual([120, 230]);

  step("the owner's call log shows what the agent did");
  const log = await alice.client.callOk("mcpcalllogservice.list", { limit: 100 });
  const mine = log.items.filter((r) => r.api_key_id === minted.key_id && r.tool_name === TRANSFER);
  // Each call and each replay is a row: parked calls and runs succeed, the refused one is `rejected`, the failed
  // replay `error` with the provider's reason.
  const rows = mine.map((r) => `${r.result_status} ${r.amount}`).sort();
  expect(rows).toEqual(
    [
      "success 30",
      "rejected 150",
      "success 80",
      "success 80",
      "success 60",
      "success 70",
      "error 0",
      "success 70",
      "success 55",
    ].sort(),
  );
  expect(mine.find((r) => r.result_status === "error")?.error_message).toBe("the available balance does not cover it");

  expect(done).toEqual([...STEPS]);
});
