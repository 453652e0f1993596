import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sweepExpiredContracts } from "../../src/services/contract-service/expiry-sweep.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, type Staffed, staffedCompanies, startFinanceApp } from "../support/entities.ts";
import { COMPANY_MEMBERS, count, errorOf, oneAudience, refusedNoWrite, sql } from "../support/helpers.ts";

let t: TestApp;
let s: Staffed;
let owner: Client;

beforeAll(async () => {
  // Sessions outlive the clock moves of the expiry tests.
  t = await startFinanceApp({ accessTokenTtlS: 365 * 24 * 3600 });
  s = await staffedCompanies(t, "contracts-owner@example.org");
  owner = await t.register("contracts-owner2@example.org");
});
afterAll(() => t.close());

const DATA = {
  name: "  Hosting services  ",
  contract_type: "service",
  counterparty: "Cloud Ltd",
  start_date: "2026-11-01T00:00:00.000Z",
};

const writes = async () => [
  await sql(t, `select * from "contract" order by sid`),
  await sql(t, `select * from "document_audience" order by sid`),
  await sql(t, `select * from "admin_action" order by sid`),
];

type Reply = Awaited<ReturnType<Client["rpc"]>>;
const typed = (r: Reply) => (r.error ? { error: r.error } : { result: r.result });

async function create(c: Client = s.director.client, data: Record<string, unknown> = {}, fzc = s.company) {
  return c.rpc("contractservice.create_company_contract", { fzc_id: fzc, data: { ...DATA, ...data } });
}
async function created(data: Record<string, unknown> = {}, fzc = s.company): Promise<any> {
  const r = await create(s.director.client, data, fzc);
  if (!r.result) throw new Error(JSON.stringify(r.error));
  return r.result;
}
const update = (c: Client, contractId: string, data: Record<string, unknown>, fzc = s.company) =>
  c.rpc("contractservice.update_company_contract", { fzc_id: fzc, contract_id: contractId, data });
const archive = (c: Client, contractId: string, fzc = s.company) =>
  c.rpc("contractservice.archive_company_contract", { fzc_id: fzc, contract_id: contractId });
const get = (c: Client, contractId: string, fzc = s.company) =>
  c.rpc("contractservice.get_company_contract", { fzc_id: fzc, contract_id: contractId });

const contractError = (variant: string) => ({ type: "ContractError", variant });

describe("create_company_contract", () => {
  test("a director records a draft contract with trimmed texts", async () => {
    const r = await create(s.director.client, { end_date: "2027-11-01T00:00:00.000Z", total_value: 1200.5 });
    expect(r.result).toMatchObject({
      fzc_id: s.company,
      name: "Hosting services",
      status: "draft",
      start_date: "2026-11-01T00:00:00.000Z",
      end_date: "2027-11-01T00:00:00.000Z",
      total_value: 1200.5,
    });
  });

  test("the contract gets a DocumentAudience row readable by every member tier", async () => {
    const c = await created();
    const row = await oneAudience(t, c.sid);
    expect(row).toMatchObject({
      document_type: "contract",
      company_id: s.company,
      audience_computation: "company_contract_members",
      document_relevant_to: null,
      supersedes: null,
      created_by: s.director.client.userId,
    });
    expect([...row.classification].sort()).toEqual(COMPANY_MEMBERS);
    expect(new Date(row.document_relevant_from).toISOString()).toBe(t.clock.now().toISOString());
  });

  test("the owner (a founder) may create", async () => {
    const company = await insertCompany(t, owner.userId);
    expect((await create(owner, {}, company)).result).toMatchObject({ status: "draft", fzc_id: company });
  });

  test("a shareholder is Forbidden and nothing is written", async () => {
    await refusedNoWrite(writes, async () => typed(await create(s.shareholder.client)), -32002, null);
  });

  test("a director of another company gets NotFound and nothing is written", async () => {
    await refusedNoWrite(writes, async () => typed(await create(s.outsider.client)), -32003, null);
  });

  test.each(["voided", "suspended", "inactive", "draft"])(
    "a %s company is InvalidState and nothing is written",
    async (status) => {
      const company = await insertCompany(t, owner.userId, { status });
      await refusedNoWrite(
        writes,
        async () => typed(await create(owner, {}, company)),
        -32005,
        contractError("InvalidState"),
      );
      const r = errorOf(await create(owner, {}, company));
      expect(r.data).toMatchObject({ status });
    },
  );

  test.each([
    ["a blank name", { name: "   " }],
    ["a blank counterparty", { counterparty: " " }],
    ["an end before the start", { end_date: "2026-10-01T00:00:00.000Z" }],
  ])("%s is InvalidInput and nothing is written", async (_what, data) => {
    await refusedNoWrite(
      writes,
      async () => typed(await create(s.director.client, data)),
      -32006,
      contractError("InvalidInput"),
    );
  });

  test("a negative value is refused by the schema (-32602)", async () => {
    await refusedNoWrite(writes, async () => typed(await create(s.director.client, { total_value: -1 })), -32602, null);
  });
});

describe("list and get", () => {
  test("members list the company's contracts newest first, without other companies' contracts", async () => {
    const first = await created();
    t.clock.advance(1);
    const second = await created({ name: "Second" });
    const elsewhere = await s.outsider.client.callOk("contractservice.create_company_contract", {
      fzc_id: s.other,
      data: DATA,
    });
    const r = await s.shareholder.client.callOk("contractservice.list_company_contracts", { fzc_id: s.company });
    const sids = r.items.map((i) => i.sid);
    expect(sids.indexOf(second.sid)).toBeLessThan(sids.indexOf(first.sid));
    expect(r.items.every((i) => i.fzc_id === s.company)).toBe(true);
    expect(sids).not.toContain(elsewhere.sid);
  });

  test("a non-member gets NotFound", async () => {
    const err = errorOf(await s.outsider.client.call("contractservice.list_company_contracts", { fzc_id: s.company }));
    expect(err.code).toBe(-32003);
  });

  test("get answers a member; a contract of another company is NotFound", async () => {
    const c = await created();
    expect((await get(s.shareholder.client, c.sid)).result).toMatchObject({ sid: c.sid, status: "draft" });
    const otherOwner = await t.register("contracts-other@example.org");
    const otherCompany = await insertCompany(t, otherOwner.userId);
    const foreign = await otherOwner.callOk("contractservice.create_company_contract", {
      fzc_id: otherCompany,
      data: DATA,
    });
    const err = errorOf(await get(s.director.client, foreign.sid));
    expect(err).toMatchObject({ code: -32003, data: contractError("NotFound") });
    expect(errorOf(await get(s.outsider.client, c.sid)).code).toBe(-32003);
  });
});

describe("reads are audited", () => {
  const views = (userId: string) =>
    sql(t, `select action, target_ref, target_type, allowed from "user_audit_log" where subject_id = ? order by sid`, [
      userId,
    ]);

  test("get_company_contract writes view_document, allowed or denied; list writes none", async () => {
    const c = await created();
    const { client: reader } = s.shareholder;
    const before = (await views(reader.userId)).length;
    await get(reader, c.sid);
    await reader.callOk("contractservice.list_company_contracts", { fzc_id: s.company });
    expect((await views(reader.userId)).slice(before)).toEqual([
      { action: "view_document", target_ref: c.sid, target_type: "contract", allowed: true },
    ]);
    const outsider = s.outsider.client;
    const seen = (await views(outsider.userId)).length;
    await get(outsider, c.sid);
    expect((await views(outsider.userId)).slice(seen)).toEqual([
      { action: "view_document", target_ref: c.sid, target_type: "contract", allowed: false },
    ]);
  });
});

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

      const moved = await sweepExpiredContracts(t.app.runtime.orm.em, t.clock.now());
      expect(moved).toEqual(expect.arrayContaining([active.sid, pending.sid]));
      expect(moved).not.toContain(draft.sid);
      expect(await count(t, "contract", "sid in (?, ?) and status = 'expired'", [active.sid, pending.sid])).toBe(2);
      expect(await sweepExpiredContracts(t.app.runtime.orm.em, t.clock.now())).toEqual([]);
      // An expired contract may still be archived.
      expect((await archive(s.director.client, active.sid)).result.status).toBe("archived");
    } finally {
      t.clock.set("2026-11-23T10:00:00.000Z");
    }
  });
});

describe("administrators", () => {
  test("an administrator naming an unknown company gets NotFound and nothing is written", async () => {
    const admin = await t.admin();
    await refusedNoWrite(
      writes,
      async () => typed(await create(admin, {}, "FZ-2026-Y999999")),
      -32003,
      contractError("NotFound"),
    );
  });

  test("an administrator's session may create; an AdminAction is recorded", async () => {
    const admin = await t.admin();
    const r = await admin.rpc("contractservice.create_company_contract", { fzc_id: s.company, data: DATA });
    expect(r.result).toMatchObject({ status: "draft" });
    const rows = await sql(t, `select action, target_id from "admin_action" where action = 'create_company_contract'`);
    expect(rows).toEqual([{ action: "create_company_contract", target_id: s.company }]);
  });
});
