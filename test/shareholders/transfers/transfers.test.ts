import { beforeEach, describe, expect, test } from "vitest";
import type { TransferResult } from "../../../generated/types.ts";
import type { TestApp } from "../../support/app.ts";
import { startFinanceApp } from "../../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../../support/helpers.ts";
import {
  type Cap,
  capTable,
  capTableCompany,
  expectedHash,
  initiate,
  newKeypair,
  openRoles,
  totalUnits,
  transferWrites,
  unitsOf,
  withKey,
} from "./support.ts";

let t: TestApp;
let cap: Cap;

beforeEach(async () => {
  t = await startFinanceApp();
  cap = await capTableCompany(t);
});

const SH = { type: "ShareholderError" };
const ok = <R>(r: { result: R } | { error: unknown }): R => {
  if ("result" in r) return r.result;
  throw new Error(JSON.stringify(r.error));
};

async function pendingTo(units = 30, reason?: string): Promise<TransferResult> {
  return ok(await initiate(cap, cap.alice, cap.carol.resident, units, reason));
}

const approve = (tr: TransferResult, signature = cap.carol.kp.sign(tr.transfer_hash)) =>
  cap.carol.client.call("shareholderservice.approve_transfer", { transfer_id: tr.sid, to_signature: signature });

async function approvedTo(units = 30): Promise<TransferResult> {
  const tr = await pendingTo(units);
  return ok(await approve(tr));
}

const complete = (tr: TransferResult, by = cap.director.client) =>
  by.call("shareholderservice.complete_transfer", { transfer_id: tr.sid });
const cancel = (tr: TransferResult, by = cap.director.client) =>
  by.call("shareholderservice.cancel_transfer", { transfer_id: tr.sid });
const writes = () => transferWrites(t, cap.company);

describe("initiate_transfer", () => {
  test("creates a pending transfer whose transfer_hash is the SHA-256 of the documented canonical terms", async () => {
    const tr = await pendingTo(30, "  sale to Carol  ");
    expect(tr).toMatchObject({
      company_id: cap.company,
      from_resident_id: cap.alice.resident,
      to_resident_id: cap.carol.resident,
      units: 30,
      reason: "sale to Carol",
      status: "pending",
      to_signature: null,
    });
    expect(tr.transfer_hash).toBe(expectedHash(tr));
    expect(await capTable(t, cap.company)).toHaveLength(2);
  });

  test("refuses more units than held", async () => {
    await refusedNoWrite(writes, () => initiate(cap, cap.alice, cap.carol.resident, 101), -32006, {
      ...SH,
      variant: "InsufficientShares",
    });
  });

  test("counts units already committed to pending and approved transfers", async () => {
    await pendingTo(60);
    await approvedTo(30);
    await refusedNoWrite(writes, () => initiate(cap, cap.alice, cap.carol.resident, 11), -32006, {
      ...SH,
      variant: "InsufficientShares",
    });
    ok(await initiate(cap, cap.alice, cap.carol.resident, 10));
  });

  test("refuses units of 0, negative units, units past 6 decimals and a transfer to oneself", async () => {
    for (const [to, units] of [
      [cap.carol.resident, 0],
      [cap.carol.resident, -5],
      [cap.carol.resident, 0.0000001],
      [cap.alice.resident, 5],
    ] as const) {
      await refusedNoWrite(writes, () => initiate(cap, cap.alice, to, units), -32006, {
        ...SH,
        variant: "InvalidInput",
      });
    }
  });

  test("refuses an unknown recipient", async () => {
    await refusedNoWrite(writes, () => initiate(cap, cap.alice, "FZ-2026-RA999999", 5), -32003, {
      ...SH,
      variant: "NotFound",
    });
  });

  test("refuses a giver the caller neither owns nor acts for", async () => {
    await refusedNoWrite(
      writes,
      () =>
        cap.bob.client.call("shareholderservice.initiate_transfer", {
          company_id: cap.company,
          from_resident_id: cap.alice.resident,
          to_resident_id: cap.carol.resident,
          units: 5,
        }),
      -32002,
      null,
    );
  });

  test("refuses a company that is not active", async () => {
    await sql(t, `update zone_company set status = 'suspended' where company_id = ?`, [cap.company]);
    await refusedNoWrite(writes, () => initiate(cap, cap.alice, cap.carol.resident, 5), -32005, {
      ...SH,
      variant: "InvalidState",
    });
  });
});

describe("approve_transfer", () => {
  test("the recipient's signature over transfer_hash approves the transfer", async () => {
    const tr = await pendingTo();
    const sig = cap.carol.kp.sign(tr.transfer_hash);
    const r = ok(await approve(tr, sig));
    expect(r).toMatchObject({ status: "approved", to_signature: sig });
    expect(r.approved_at).toBe(t.clock.now().toISOString());
  });

  test("refuses a signature over other terms, nothing written", async () => {
    const tr = await pendingTo();
    const other = await pendingTo(5);
    await refusedNoWrite(writes, () => approve(tr, cap.carol.kp.sign(other.transfer_hash)), -32006, {
      ...SH,
      variant: "InvalidSignature",
    });
  });

  test("refuses a signature by a key the recipient has replaced (the current key decides)", async () => {
    const tr = await pendingTo();
    const old = cap.carol.kp;
    await withKey(cap.carol, newKeypair());
    await refusedNoWrite(writes, () => approve(tr, old.sign(tr.transfer_hash)), -32006, {
      ...SH,
      variant: "InvalidSignature",
    });
  });

  test("refuses a malformed signature and a recipient without a key", async () => {
    const tr = await pendingTo();
    await refusedNoWrite(writes, () => approve(tr, "ab"), -32006, { ...SH, variant: "InvalidSignature" });
    const keyless = ok(await initiate(cap, cap.alice, cap.stranger.resident, 5));
    await refusedNoWrite(
      writes,
      () =>
        cap.stranger.client.call("shareholderservice.approve_transfer", {
          transfer_id: keyless.sid,
          to_signature: cap.carol.kp.sign(keyless.transfer_hash),
        }),
      -32006,
      { ...SH, variant: "InvalidSignature" },
    );
  });

  test("a member who is not the recipient gets NotOwner, a stranger NotFound", async () => {
    const tr = await pendingTo();
    const params = { transfer_id: tr.sid, to_signature: cap.carol.kp.sign(tr.transfer_hash) };
    await refusedNoWrite(
      writes,
      () => cap.director.client.call("shareholderservice.approve_transfer", params),
      -32002,
      {
        ...SH,
        variant: "NotOwner",
      },
    );
    await refusedNoWrite(
      writes,
      () => cap.stranger.client.call("shareholderservice.approve_transfer", params),
      -32003,
      {
        ...SH,
        variant: "NotFound",
      },
    );
  });

  test("refuses a transfer that is not pending", async () => {
    const tr = await approvedTo();
    await refusedNoWrite(writes, () => approve(tr), -32005, { ...SH, variant: "InvalidState" });
  });
});

describe("reject_transfer (issue 30: ShareTransferStatus rejected)", () => {
  const reject = (tr: TransferResult, by = cap.carol.client) =>
    by.call("shareholderservice.reject_transfer", { transfer_id: tr.sid });

  test("the recipient declines a pending transfer: rejected at rejected_at, the units never move", async () => {
    const tr = await pendingTo(30);
    const before = await capTable(t, cap.company);
    t.clock.advance(5);
    const r = ok(await reject(tr));
    expect(r).toMatchObject({ status: "rejected", rejected_at: t.clock.now().toISOString(), approved_at: null });
    expect(await capTable(t, cap.company)).toEqual(before);
    await refusedNoWrite(writes, () => approve(tr), -32005, { ...SH, variant: "InvalidState" });
    await refusedNoWrite(writes, () => complete(tr), -32005, { ...SH, variant: "InvalidState" });
    await refusedNoWrite(writes, () => cancel(tr), -32005, { ...SH, variant: "InvalidState" });
  });

  test("only the recipient: the giver and a director get NotOwner, a stranger NotFound", async () => {
    const tr = await pendingTo();
    await refusedNoWrite(writes, () => reject(tr, cap.alice.client), -32002, { ...SH, variant: "NotOwner" });
    await refusedNoWrite(writes, () => reject(tr, cap.director.client), -32002, { ...SH, variant: "NotOwner" });
    await refusedNoWrite(writes, () => reject(tr, cap.stranger.client), -32003, { ...SH, variant: "NotFound" });
  });

  test("a countersigned (approved) or rejected transfer is InvalidState", async () => {
    const signed = await approvedTo(10);
    await refusedNoWrite(writes, () => reject(signed), -32005, { ...SH, variant: "InvalidState" });
    const declined = await pendingTo(5);
    ok(await reject(declined));
    await refusedNoWrite(writes, () => reject(declined), -32005, { ...SH, variant: "InvalidState" });
  });
});

describe("complete_transfer", () => {
  test("moves the units, writes the recipient's shareholder role and keeps the company total", async () => {
    const tr = await approvedTo(30);
    const r = ok(await complete(tr));
    expect(r).toMatchObject({ status: "completed", completed_at: t.clock.now().toISOString() });
    const table = await capTable(t, cap.company);
    expect(unitsOf(table, cap.alice.resident)).toBe(70);
    expect(unitsOf(table, cap.carol.resident)).toBe(30);
    expect(table.find((x) => x.resident_id === cap.carol.resident)).toMatchObject({ role: "shareholder" });
    expect(totalUnits(table)).toBe(150);
    expect(await openRoles(t, cap.company, cap.carol.resident)).toEqual(["shareholder"]);
    expect(await openRoles(t, cap.company, cap.alice.resident)).toEqual(["shareholder"]);
  });

  test("a giver left with no units leaves the cap table and its shareholder role is closed", async () => {
    const tr = ok(await initiate(cap, cap.bob, cap.alice.resident, 50));
    const sig = (await withKey(cap.alice)).kp.sign(tr.transfer_hash);
    ok(await cap.alice.client.call("shareholderservice.approve_transfer", { transfer_id: tr.sid, to_signature: sig }));
    ok(await complete(tr));
    const table = await capTable(t, cap.company);
    expect(table.map((x) => [x.resident_id, x.units])).toEqual([[cap.alice.resident, 150]]);
    expect(await openRoles(t, cap.company, cap.bob.resident)).toEqual([]);
    // an existing holder gets no second role row
    expect(await openRoles(t, cap.company, cap.alice.resident)).toEqual(["shareholder"]);
  });

  test("refuses a transfer that is not approved", async () => {
    const tr = await pendingTo();
    await refusedNoWrite(writes, () => complete(tr), -32005, { ...SH, variant: "InvalidState" });
    const done = await approvedTo(10);
    ok(await complete(done));
    await refusedNoWrite(writes, () => complete(done), -32005, { ...SH, variant: "InvalidState" });
  });

  test("refuses when the giver no longer holds the units", async () => {
    const tr = await approvedTo(80);
    await sql(t, `update zone_company set shareholders = ?::jsonb where company_id = ?`, [
      JSON.stringify((await capTable(t, cap.company)).map((x) => ({ ...x, units: x.units === 100 ? 60 : x.units }))),
      cap.company,
    ]);
    await refusedNoWrite(writes, () => complete(tr), -32006, { ...SH, variant: "InsufficientShares" });
  });

  test("a shareholder gets Forbidden, a stranger NotFound", async () => {
    const tr = await approvedTo();
    await refusedNoWrite(writes, () => complete(tr, cap.bob.client), -32002, { ...SH, variant: "Forbidden" });
    await refusedNoWrite(writes, () => complete(tr, cap.stranger.client), -32003, { ...SH, variant: "NotFound" });
  });

  test("an administrator's session completes and records an AdminAction", async () => {
    const tr = await approvedTo();
    ok(await complete(tr, await t.admin()));
    const rows = await sql(t, `select action, target_id from admin_action where action = 'complete_share_transfer'`);
    expect(rows).toEqual([{ action: "complete_share_transfer", target_id: cap.company }]);
  });
});

describe("cancel_transfer", () => {
  test("the giver cancels a pending transfer and a director an approved one", async () => {
    const a = await pendingTo();
    expect(ok(await cancel(a, cap.alice.client))).toMatchObject({ status: "cancelled" });
    const b = await approvedTo();
    const r = ok(await cancel(b));
    expect(r).toMatchObject({ status: "cancelled", cancelled_at: t.clock.now().toISOString() });
    // cancelled units are free again
    ok(await initiate(cap, cap.alice, cap.carol.resident, 100));
  });

  test("another shareholder gets Forbidden, a stranger NotFound, a completed transfer InvalidState", async () => {
    const tr = await approvedTo();
    await refusedNoWrite(writes, () => cancel(tr, cap.bob.client), -32002, { ...SH, variant: "Forbidden" });
    await refusedNoWrite(writes, () => cancel(tr, cap.stranger.client), -32003, { ...SH, variant: "NotFound" });
    ok(await complete(tr));
    await refusedNoWrite(writes, () => cancel(tr), -32005, { ...SH, variant: "InvalidState" });
  });
});

describe("list_transfers", () => {
  test("lists the company's transfers newest first, optionally in one status; strangers get NotFound", async () => {
    const first = await pendingTo(1);
    t.clock.advance(1);
    const second = await approvedTo(2);
    const list = ok(await cap.bob.client.call("shareholderservice.list_transfers", { company_id: cap.company }));
    expect(list.items.map((x) => x.sid)).toEqual([second.sid, first.sid]);
    const approved = ok(
      await cap.bob.client.call("shareholderservice.list_transfers", { company_id: cap.company, status: "approved" }),
    );
    expect(approved.items.map((x) => x.sid)).toEqual([second.sid]);
    const err = errorOf(
      await cap.stranger.client.call("shareholderservice.list_transfers", { company_id: cap.company }),
    );
    expect(err).toMatchObject({ code: -32003 });
  });
});
