import { beforeEach, describe, expect, test } from "vitest";
import {
  createResident,
  insertContract,
  insertKycSession,
  insertSignature,
  verifyEmail,
} from "../residents/support.ts";
import { newKeypair, SMALL_ORDER_KEY } from "../signatures/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { balanceOf, datesOf, deductions, fund, renewalStart } from "./support.ts";

// creditservice.activate_resident over HTTP: the wallet debit is the payment of the one activation rule, the
// client keypair is stored with its history, all in one transaction; any refusal writes nothing.

let t: TestApp;
let admin: Client;
let ada: Client;
beforeEach(async () => {
  ({ t, admin, ada } = await renewalStart());
});

type Step = "identity" | "kyc" | "contracts";

/** Ada's pending resident with every step but the payment (and those in `skip`) done. */
async function readyResident(skip: Step[] = []) {
  if (!skip.includes("identity")) await verifyEmail(t, ada.userId);
  const r = await createResident(ada);
  const terms = await insertContract(t, "terms_of_service");
  if (!skip.includes("contracts")) await insertSignature(t, ada.userId, terms);
  if (!skip.includes("kyc")) await insertKycSession(t, ada.userId, r.resident_id);
  return r.resident_id;
}

const keypair = newKeypair();
const activate = (plan = "1_year", keys: { public_key?: string; encrypted_private_key?: string } = {}) =>
  ada.call("creditservice.activate_resident", {
    plan,
    public_key: keys.public_key ?? keypair.publicKey,
    encrypted_private_key: keys.encrypted_private_key ?? keypair.encrypted,
  });

/** Whatever activation writes, to assert that a refusal wrote none of it. */
async function footprint(residentId: string) {
  return {
    resident: await datesOf(t, "digital_resident", residentId),
    keys: await sql(t, `select public_key, keypair_version::int as v from digital_resident where resident_id = ?`, [
      residentId,
    ]),
    history: await count(t, "public_key_history"),
    ledger: await count(t, "credit_transaction", "tx_type = 'deduction'"),
    balance: await balanceOf(t, ada.userId),
    flow: await count(t, "registration_flow"),
  };
}

describe("creditservice.activate_resident", () => {
  test("debits the plan price, stores the keypair, activates for the plan's period, records the flow", async () => {
    const residentId = await readyResident();
    await fund(admin, ada.userId, 150);
    const r = await ada.callOk("creditservice.activate_resident", {
      plan: "1_year",
      public_key: keypair.publicKey,
      encrypted_private_key: keypair.encrypted,
    });
    expect(r).toMatchObject({
      activated: true,
      user_id: ada.userId,
      resident_id: residentId,
      status: "active",
      subscription_plan: "1_year",
      subscription_start_date: "2026-11-23T10:00:00.000Z",
      subscription_end_date: "2027-11-23T10:00:00.000Z",
      keypair_version: 1,
      amount_charged: 102,
      balance_after: 48,
      missing_steps: [],
    });
    expect(await deductions(t, ada.userId)).toEqual([
      { amount: "102.00", reference_type: "subscription", reference_id: residentId },
    ]);
    expect(await count(t, "credit_transaction", "sid = ?", [r.credit_transaction_id])).toBe(1);
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({ status: "active", plan: "1_year" });
    const keys = await ada.callOk("keypairservice.get_encrypted_private_key", {
      entity_type: "resident",
      entity_id: residentId,
    });
    expect(keys).toMatchObject({ public_key: keypair.publicKey, encrypted_private_key: keypair.encrypted });
    expect(await count(t, "public_key_history", "entity_id = ? and valid_to is null", [residentId])).toBe(1);
    expect(await sql(t, `select status from registration_flow where user_id = ?`, [ada.userId])).toEqual([
      { status: "registration_complete" },
    ]);
  });

  test("1_month costs 10 and keeps the plan the resident chose", async () => {
    const residentId = await readyResident();
    await sql(t, `update digital_resident set subscription_plan = '2_years' where resident_id = ?`, [residentId]);
    await fund(admin, ada.userId, 10);
    const r = await ada.callOk("creditservice.activate_resident", {
      plan: "1_month",
      public_key: keypair.publicKey,
      encrypted_private_key: keypair.encrypted,
    });
    expect(r).toMatchObject({ amount_charged: 10, balance_after: 0, subscription_plan: "2_years" });
    expect(r.subscription_end_date).toBe("2026-12-23T10:00:00.000Z");
  });

  test("a short wallet is InsufficientFunds and nothing is written (no key, no activation)", async () => {
    const residentId = await readyResident();
    await fund(admin, ada.userId, 101.99);
    const before = await footprint(residentId);
    expect(errorOf(await activate())).toMatchObject({
      code: -32006,
      data: { type: "CreditError", variant: "InsufficientFunds", balance: 101.99 },
    });
    expect(await footprint(residentId)).toEqual(before);
    expect(before.resident?.status).toBe("pending");
  });

  test.each([["identity"], ["kyc"], ["contracts"]] as const)(
    "with %s missing: InvalidState naming the step, nothing charged",
    async (step) => {
      const residentId = await readyResident([step]);
      await fund(admin, ada.userId, 500);
      const before = await footprint(residentId);
      expect(errorOf(await activate())).toMatchObject({
        code: -32005,
        data: { variant: "InvalidState", missing_steps: [step] },
      });
      expect(await footprint(residentId)).toEqual(before);
    },
  );

  test("a caller without a resident is InvalidState", async () => {
    await fund(admin, ada.userId, 500);
    expect(errorOf(await activate())).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(await balanceOf(t, ada.userId)).toBe(500);
  });

  test("a suspended resident is InvalidState; an active one gets the same activation without a charge", async () => {
    const residentId = await readyResident();
    await fund(admin, ada.userId, 500);
    await sql(t, `update digital_resident set status = 'suspended' where resident_id = ?`, [residentId]);
    expect(errorOf(await activate())).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    await sql(t, `update digital_resident set status = 'pending' where resident_id = ?`, [residentId]);
    await ada.callOk("creditservice.activate_resident", {
      plan: "1_year",
      public_key: keypair.publicKey,
      encrypted_private_key: keypair.encrypted,
    });
    const again = await activate("2_years", { public_key: newKeypair().publicKey });
    expect("result" in again && again.result).toMatchObject({
      activated: true,
      amount_charged: null,
      subscription_end_date: "2027-11-23T10:00:00.000Z",
    });
    expect(await balanceOf(t, ada.userId)).toBe(398);
    expect(await count(t, "public_key_history")).toBe(1);
  });

  test.each([
    ["an unknown plan", { plan: "1_week" }],
    ["a malformed public key", { public_key: "XYZ" }],
    ["a small-order public key", { public_key: SMALL_ORDER_KEY }],
    ["an encrypted key without a nonce", { encrypted_private_key: "abcdef" }],
  ])("%s is InvalidInput, nothing written", async (_what, change) => {
    const residentId = await readyResident();
    await fund(admin, ada.userId, 500);
    const before = await footprint(residentId);
    const { plan, ...keys } = change as { plan?: string; public_key?: string; encrypted_private_key?: string };
    expect(errorOf(await activate(plan, keys))).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    expect(await footprint(residentId)).toEqual(before);
  });

  test("another user's id is refused", async () => {
    const bob = await t.register("bob@example.org");
    const r = await ada.call("creditservice.activate_resident", {
      user_id: bob.userId,
      plan: "1_year",
      public_key: keypair.publicKey,
      encrypted_private_key: keypair.encrypted,
    });
    expect(errorOf(r).code).toBe(-32002);
  });
});
