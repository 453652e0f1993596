import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passesCompanyRole } from "../../codegen/authorization.ts";
import { RECORDS, type RecordName } from "../../generated/crud.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, insertResident, insertRole, member, startFinanceApp } from "../support/entities.ts";
import { sql } from "../support/helpers.ts";
import {
  callParams,
  companyRows,
  type Entry,
  issuedBy,
  kindsWithoutFixture,
  RECORD_FIXTURES,
  ROLE_KINDS,
  type Row,
  targetRefusal,
  unknownId,
} from "./support.ts";

/**
 * One HTTP row per way of finding a company (x-target: the company itself, a record through its x-company, or a
 * company or resident issuer), against the real handlers. The rule itself is role-rule.test.ts's; here one method of
 * each way is called by a holder of its role (gets past the target step: whatever the handler answers, it is not
 * the dispatcher's refusal), a member short of it (Forbidden), an outsider (NotFound), with an unknown id
 * (NotFound) and with a record of one company by a holder of the role in another only (NotFound).
 */

interface Way {
  name: string;
  /** The method called: one needing a role beyond `member` where the way has one, a read where possible. */
  row: Row;
  methods: string[];
}

/** The ways of finding a company, from the registry: by target record, and whether a resident may be the issuer. */
function ways(): Way[] {
  const groups = new Map<string, Row[]>();
  for (const row of companyRows()) {
    const key = `${row.rule.record}${row.rule.foreignResident ? " or a resident issuer" : ""}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const rank = (r: Row) => (r.rule.role === "member" ? 2 : 0) + (r.entry.mcp.readOnly ? 0 : 1);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, rows]) => ({
      name,
      row: [...rows].sort((a, b) => rank(a) - rank(b) || a.entry.name.localeCompare(b.entry.name))[0]!,
      methods: rows.map((r) => r.entry.name),
    }));
}

const WAYS = ways();

interface Person {
  client: Client;
  resident: string;
}

let t: TestApp;
let companyA: string;
let companyB: string;
let outsider: Person;
let admin: Person;

beforeAll(async () => {
  t = await startFinanceApp();
  const owner = await member(t);
  companyA = await insertCompany(t, owner.client.userId);
  companyB = await insertCompany(t, owner.client.userId);
  outsider = await member(t);
  const client = await t.admin();
  admin = { client, resident: await insertResident(t, client.userId) };
});
afterAll(() => t.close());

test("every record kind an x-target names has a fixture (RECORD_FIXTURES in support.ts)", () => {
  const entries = companyRows().map((r) => r.entry);
  expect(kindsWithoutFixture(entries), "record kinds with no fixture: add one to RECORD_FIXTURES").toEqual([]);
});

test("the ways include the company itself, each record kind and the resident issuer", () => {
  expect(WAYS.map((w) => w.name)).toEqual(
    expect.arrayContaining([
      "ZoneCompany",
      "ZoneCompany or a resident issuer",
      "Proposal",
      "GovernanceAction",
      "ShareTransfer",
      "DividendDistribution",
      "BusinessDocument",
    ]),
  );
});

/** A user whose resident holds `role` in `company`. */
async function holder(company: string, role: string): Promise<Person> {
  const m = await member(t);
  await insertRole(t, company, m.resident, role);
  return m;
}

function call(p: Person, entry: Entry, target: string) {
  return p.client.rpc(entry.name, callParams(entry, p.resident, target));
}

function refusedAs(r: Awaited<ReturnType<typeof call>>, entry: Entry, variant: string) {
  expect(r.error?.code, `params must be valid: ${JSON.stringify(r.body)}`).not.toBe(-32602);
  expect(targetRefusal(r, entry), JSON.stringify(r.body)).toBe(variant);
}

/** The target record as stored (a refused call must leave it so). */
async function stored(entry: Entry, id: string): Promise<unknown[]> {
  const t0 = entry.target!;
  const table = RECORDS[t0.record as RecordName].table;
  return sql(t, `select * from "${table}" where "${t0.field}" = ?`, [id]);
}

/** `p` calling with `id` gets the target step's `variant`, and the record is unchanged. */
async function refused(p: Person, entry: Entry, id: string, variant: string) {
  const before = await stored(entry, id);
  refusedAs(await call(p, entry, id), entry, variant);
  expect(await stored(entry, id), "a refused call changed its target").toEqual(before);
}

function passed(r: Awaited<ReturnType<typeof call>>, entry: Entry) {
  expect(r.error?.code, `params must be valid: ${JSON.stringify(r.body)}`).not.toBe(-32602);
  expect(targetRefusal(r, entry), `refused by the target step: ${JSON.stringify(r.body)}`).toBeNull();
}

describe.each(WAYS.filter((w) => RECORD_FIXTURES[w.row.rule.record]))("$name", (way) => {
  const { entry, rule } = way.row;
  const holds = rule.role === "member" ? "shareholder" : rule.role;
  const short = ROLE_KINDS.find((k) => !passesCompanyRole(rule.role, [k]));
  let inA: Person;
  let elsewhere: Person;
  /** A fresh record of company A per call (a passing write may change or delete the one before). */
  const fresh = () => RECORD_FIXTURES[rule.record]!(t, companyA, inA.resident);

  beforeAll(async () => {
    inA = await holder(companyA, holds);
    elsewhere = await holder(companyB, holds);
  });

  test(`${entry.name} (${rule.role}; ${way.methods.length} methods find their company this way)`, () => {
    expect(way.methods).toContain(entry.name);
  });

  test(`a ${holds} gets past the target step`, async () => {
    passed(await call(inA, entry, await fresh()), entry);
  });

  if (short) {
    test(`a ${short} (short of ${rule.role}) is Forbidden`, async () => {
      await refused(await holder(companyA, short), entry, await fresh(), "Forbidden");
    });
  }

  test("an outsider is NotFound", async () => {
    await refused(outsider, entry, await fresh(), "NotFound");
  });

  test("an unknown id is NotFound, even to a holder of the role", async () => {
    refusedAs(await call(inA, entry, unknownId(rule.record)), entry, "NotFound");
  });

  test(`a ${holds} of another company only is NotFound`, async () => {
    await refused(elsewhere, entry, await fresh(), "NotFound");
  });

  if (rule.adminBypass) {
    test("an administrator's session gets past the target step", async () => {
      passed(await call(admin, entry, await fresh()), entry);
    });
  } else {
    test("an administrator's session is checked as any caller (adminBypass false): NotFound", async () => {
      await refused(admin, entry, await fresh(), "NotFound");
    });
  }

  if (rule.foreignResident) {
    test("the caller's own resident as issuer gets past the target step", async () => {
      passed(await call(outsider, entry, await issuedBy(t, rule.record, outsider.resident)), entry);
    });

    test(`another user's resident as issuer is ${rule.foreignResident}, even to a holder of the role`, async () => {
      const other = await issuedBy(t, rule.record, (await member(t)).resident);
      refusedAs(await call(inA, entry, other), entry, rule.foreignResident!);
      refusedAs(await call(outsider, entry, other), entry, rule.foreignResident!);
    });
  }
});
