import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sweepExpiredContracts } from "../../src/services/contract-service/expiry-sweep.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, type Staffed } from "../support/entities.ts";
import { count, refusedNoWrite, sql } from "../support/helpers.ts";
import { type ContractFixture, contractCalls, contractError, contractFixture, DATA, typed } from "./support.ts";

let t: TestApp;
let s: Staffed;
let owner: Client;
let f: ContractFixture;

beforeAll(async () => {
  f = await contractFixture();
  ({ t, s, owner } = f);
});
afterAll(() => t.close());

const { created, update, archive, get, writes } = contractCalls(() => f);

describe("update_company_contract", () => {
  test("status moves forward draft -> pending_signature -> active, with field changes", async () => {
    const c = await created();
    const pending = await update(s.director.client, c.sid, { status: "pending_signature", counterparty: " New Co " });
    expect(pending.result).toMatchObject({ status: "pending_signature", counterparty: "New Co" });
    const active = await update(s.director.client, c.sid, { status: "active", total_value: null });
    expect(active.result).toMatchObject({ status: "active", total_value: null });
    expect((await get(s.director.client, c.sid)).result).toEqual(active.result);
  });

  test("a draft may go straight to active", async () => {
    const c = await created();
    expect((await update(s.director.client, c.sid, { status: "active" })).result).toMatchObject({ status: "active" });
  });

  test("a backward move is InvalidState and nothing is written", async () => {
    const c = await created();
    await update(s.director.client, c.sid, { status: "active" });
    await refusedNoWrite(
      writes,
      async () => typed(await update(s.director.client, c.sid, { status: "pending_signature" })),
      -32005,
      contractError("InvalidState"),
    );
  });

  test("an archived contract is InvalidState", async () => {
    const c = await created();
    await archive(s.director.client, c.sid);
    await refusedNoWrite(
      writes,
      async () => typed(await update(s.director.client, c.sid, { name: "x" })),
      -32005,
      contractError("InvalidState"),
    );
  });

  test("an expired contract is InvalidState", async () => {
    const c = await created({ end_date: "2026-12-01T00:00:00.000Z" });
    await update(s.director.client, c.sid, { status: "active" });
    t.clock.set("2026-12-02T00:00:00.000Z");
    try {
      await refusedNoWrite(
        writes,
        async () => typed(await update(s.director.client, c.sid, { name: "x" })),
        -32005,
        contractError("InvalidState"),
      );
    } finally {
      t.clock.set("2026-11-23T10:00:00.000Z");
    }
  });

  test.each([
    ["an end before the start", { end_date: "2026-01-01T00:00:00.000Z" }],
    ["a start after the end", { start_date: "2028-01-01T00:00:00.000Z" }],
    ["a blank name", { name: "   " }],
    ["activating a contract whose end has passed", { status: "active", end_date: "2026-11-20T00:00:00.000Z" }],
  ])("%s is InvalidInput and nothing is written", async (_what, data) => {
    const c = await created({ end_date: "2027-06-01T00:00:00.000Z" });
    await refusedNoWrite(
      writes,
      async () => typed(await update(s.director.client, c.sid, data)),
      -32006,
      contractError("InvalidInput"),
    );
  });

  test("empty data or an unknown status is refused by the schema (-32602)", async () => {
    const c = await created();
    await refusedNoWrite(writes, async () => typed(await update(s.director.client, c.sid, {})), -32602, null);
    await refusedNoWrite(
      writes,
      async () => typed(await update(s.director.client, c.sid, { status: "archived" })),
      -32602,
      null,
    );
  });

  test("a shareholder is Forbidden; a contract of another company is NotFound", async () => {
    const c = await created();
    await refusedNoWrite(
      writes,
      async () => typed(await update(s.shareholder.client, c.sid, { name: "x" })),
      -32002,
      null,
    );
    const elsewhere = await owner.callOk("contractservice.create_company_contract", {
      fzc_id: await insertCompany(t, owner.userId),
      data: DATA,
    });
    await refusedNoWrite(
      writes,
      async () => typed(await update(s.director.client, elsewhere.sid, { name: "x" })),
      -32003,
      contractError("NotFound"),
    );
  });

  test("a contract of a company voided since is InvalidState", async () => {
    const company = await insertCompany(t, owner.userId);
    const c = await owner.callOk("contractservice.create_company_contract", { fzc_id: company, data: DATA });
    await sql(t, `update "zone_company" set status = 'voided' where company_id = ?`, [company]);
    await refusedNoWrite(
      writes,
      async () => typed(await update(owner, c.sid, { name: "x" }, company)),
      -32005,
      contractError("InvalidState"),
    );
    await refusedNoWrite(
      writes,
      async () => typed(await archive(owner, c.sid, company)),
      -32005,
      contractError("InvalidState"),
    );
  });
});

describe("archive_company_contract", () => {
  test("archives from any status; archiving again changes nothing", async () => {
    const c = await created();
    await update(s.director.client, c.sid, { status: "active" });
    t.clock.advance(5);
    const first = await archive(s.director.client, c.sid);
    expect(first.result).toMatchObject({ status: "archived" });
    t.clock.advance(5);
    const before = await writes();
    const again = await archive(s.director.client, c.sid);
    expect(again.result).toEqual(first.result);
    expect(await writes()).toEqual(before);
  });

  test("a shareholder is Forbidden and a non-member gets NotFound; nothing is written", async () => {
    const c = await created();
    await refusedNoWrite(writes, async () => typed(await archive(s.shareholder.client, c.sid)), -32002, null);
    await refusedNoWrite(writes, async () => typed(await archive(s.outsider.client, c.sid)), -32003, null);
  });
});

describe("contract states over time", () => {
  test("a pending or active contract reads expired once its end has passed; a draft does not", async () => {
    const active = await created({ end_date: "2026-11-30T00:00:00.000Z" });
    await update(s.director.client, active.sid, { status: "active" });
    const pending = await created({ end_date: "2026-11-30T00:00:00.000Z" });
    await update(s.director.client, pending.sid, { status: "pending_signature" });
    const draft = await created({ end_date: "2026-11-30T00:00:00.000Z" });
    t.clock.set("2026-11-30T00:00:00.000Z");
    try {
      expect((await get(s.director.client, active.sid)).result.status).toBe("expired");
      expect((await get(s.director.client, pending.sid)).result.status).toBe("expired");
      expect((await get(s.director.client, draft.sid)).result.status).toBe("draft");

      const moved = await sweepExpiredContracts(t.app.runtime, t.clock.now());
      expect(moved).toEqual(expect.arrayContaining([active.sid, pending.sid]));
      expect(moved).not.toContain(draft.sid);
      expect(await count(t, "contract", "sid in (?, ?) and status = 'expired'", [active.sid, pending.sid])).toBe(2);
      expect(await sweepExpiredContracts(t.app.runtime, t.clock.now())).toEqual([]);
      // An expired contract may still be archived.
      expect((await archive(s.director.client, active.sid)).result.status).toBe("archived");
    } finally {
      t.clock.set("2026-11-23T10:00:00.000Z");
    }
  });
});
