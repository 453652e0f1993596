import { beforeAll, describe, expect, test } from "vitest";
import { createRegistry } from "../../src/app/runtime.ts";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";
import { sampleParams } from "./sample-params.ts";

/**
 * Broken object-level authorization, table-driven: every method whose spec binds a param to the caller
 * (x-caller-binding), called by a second user who names the first user's id (or resident), is refused with
 * -32002 before anything runs, and writes nothing but the audit trail and the rate-limit counters.
 * The methods come from the registry, so new ones are covered as soon as their spec says so.
 */

let t: TestApp;
let ada: Client;
let bob: Client;
let adaResident: string;
let bobResident: string;

const UNWRITTEN = new Set(["user_audit_log", "rate_limit_counter", "mikro_orm_migrations"]);

let countAll = "";

/** Rows per table, in one statement. */
async function rowCounts(): Promise<Record<string, number>> {
  if (!countAll) {
    const tables = await sql<{ tablename: string }>(
      t,
      `select tablename from pg_catalog.pg_tables where schemaname = current_schema() order by tablename`,
    );
    countAll = tables
      .filter(({ tablename }) => !UNWRITTEN.has(tablename))
      .map(({ tablename }) => `select '${tablename}' as name, count(*) as n from "${tablename}"`)
      .join(" union all ");
  }
  const rows = await sql<{ name: string; n: string }>(t, countAll);
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}

beforeAll(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
  adaResident = String(
    (await insertRow(t.app.runtime.orm, "DigitalResident", residentValues(ada.userId)))["resident_id"],
  );
  bobResident = String(
    (await insertRow(t.app.runtime.orm, "DigitalResident", residentValues(bob.userId)))["resident_id"],
  );
});

const registry = createRegistry();

function boundMethods(kind: "user" | "resident") {
  const seen = new Map<string, { name: string; param: string; password: string | null }>();
  for (const entry of registry.values()) {
    if (entry.callerBinding?.kind !== kind) continue;
    seen.set(entry.name, { name: entry.name, param: entry.callerBinding.param, password: entry.password });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

async function refusedFor(method: { name: string; param: string; password: string | null }, victim: string) {
  const params: Record<string, unknown> = { ...sampleParams(method.name), [method.param]: victim };
  if (method.password) params[method.password] = PASSWORD;
  const before = await rowCounts();
  const r = await bob.rpc(method.name, params);
  expect(r.error, `${method.name} answered ${JSON.stringify(r.body)}`).toMatchObject({
    code: -32002,
    data: { variant: "NotOwner" },
  });
  expect(await rowCounts(), `${method.name} wrote something`).toEqual(before);
}

describe("caller-bound user ids", () => {
  test("the registry binds user ids on the identity operations (the table is not empty)", () => {
    const names = boundMethods("user").map((m) => m.name);
    expect(names).toEqual(
      expect.arrayContaining(["authservice.me", "authservice.change_password", "userauditlogservice.list_for_subject"]),
    );
  });

  test.each(boundMethods("user"))("$name refuses a second user naming the first ($param)", async (method) => {
    await refusedFor(method, ada.userId);
  });
});

describe("caller-bound resident ids", () => {
  test.each(boundMethods("resident"))(
    "$name refuses a second user naming the first user's resident ($param)",
    async (method) => {
      await refusedFor(method, adaResident);
    },
  );

  test("the second user's own resident passes the binding (the refusal above is about ownership)", async () => {
    const r = await bob.rpc("treasuryservice.list_resident_accounts", { resident_id: bobResident });
    expect(r.error?.data?.variant).not.toBe("NotOwner");
  });
});

/**
 * Record-id operations scope by owner in the handler: another user's record is NotFound (no existence leak) or
 * Forbidden. One row per operation; later issues add theirs.
 */
const OWNER_SCOPED: {
  method: string;
  setup: (owner: Client) => Promise<Record<string, unknown>>;
  code: number;
}[] = [
  {
    method: "apikeyservice.revoke",
    setup: async (owner) => ({ key_id: await personalKey(owner), password: PASSWORD }),
    code: -32003,
  },
  {
    method: "apikeyservice.rotate",
    setup: async (owner) => ({ key_id: await personalKey(owner), password: PASSWORD }),
    code: -32003,
  },
  {
    method: "apikeyservice.update_personal",
    setup: async (owner) => ({ key_id: await personalKey(owner), password: PASSWORD, name: "taken over" }),
    code: -32003,
  },
  {
    method: "userauditlogservice.list_for_target",
    setup: async (owner) => ({ target_ref: await personalKey(owner), limit: 0 }),
    code: -32003,
  },
];

async function personalKey(owner: Client): Promise<string> {
  const r = await owner.rpc("apikeyservice.generate_personal", { name: "bola", password: PASSWORD });
  return r.result.key_id;
}

describe("owner-scoped record operations", () => {
  for (const row of OWNER_SCOPED) {
    test(`${row.method} on another user's record is ${row.code} and changes nothing`, async () => {
      const params = await row.setup(ada);
      const before = await rowCounts();
      const r = await bob.rpc(row.method, params);
      expect(r.error?.code).toBe(row.code);
      expect(await rowCounts()).toEqual(before);
    });
  }
});
