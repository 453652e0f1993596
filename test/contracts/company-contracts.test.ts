import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, type Staffed } from "../support/entities.ts";
import { COMPANY_MEMBERS, errorOf, oneAudience, refusedNoWrite, sql } from "../support/helpers.ts";
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

const { create, created, get, writes } = contractCalls(() => f);

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
      supersedes: null,
      created_by: s.director.client.userId,
    });
    expect([...row.classification].sort()).toEqual(COMPANY_MEMBERS);
    // Relevant at the instant it was made (docs/decisions.md "Visibility of company records (issue 30)").
    expect(new Date(row.document_relevant_from).toISOString()).toBe(t.clock.now().toISOString());
    expect(new Date(row.document_relevant_to).getTime()).toBe(t.clock.now().getTime() + 1);
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
