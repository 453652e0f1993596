import type { MikroORM } from "@mikro-orm/postgresql";
import { beforeAll, describe, expect, test } from "vitest";
import { type FieldSpec, RECORDS, type RecordSpec } from "../../generated/crud.ts";
import { crudHandlers } from "../../src/crud/engine.ts";
import { initialValue } from "../../src/crud/rows.ts";
import { canonical, selectSql } from "../../src/crud/select.ts";
import { sqlRows } from "../../src/db/sql.ts";
import { uuidv7 } from "../../src/domain/ids.ts";
import type { Caller, RpcContext } from "../../src/rpc/context.ts";
import { resetDatabase } from "../support/database.ts";
import { insertRow } from "../support/rows.ts";

// Generic CRUD reads run a precompiled select of the wire's columns as a prepared statement. Their answers must
// be what the ORM-era path gave, byte for byte: `select *` through MikroORM's raw execute, mapped field by field
// (secret and private left out, timestamps RFC 3339 with ms, numeric and bigint strings as numbers). Every record
// of the spec, with a row holding a value in every column and a row holding nulls and defaults.
let orm: MikroORM;

const OWNER = "owner-user";
const caller = (userId: string, roles: string[]): Caller => ({
  userId,
  email: `${userId}@example.org`,
  roles,
  via: "session",
  sessionId: "s",
  apiKeyId: null,
  partnerId: null,
  mcpScope: null,
});
const admin = caller("an-admin", ["user", "admin"]);
const owner = caller(OWNER, ["user"]);
const contextOf = (who: Caller) => ({ em: orm.em.fork(), caller: who }) as unknown as RpcContext;

/** The answer the ORM-era code gave for a stored row (written out again here, independently of src/crud). */
function formerWire(record: RecordSpec, row: Record<string, unknown>): Record<string, unknown> {
  const hidden = new Set([...record.secret, ...record.private]);
  const out: Record<string, unknown> = {};
  for (const field of record.fields) {
    if (hidden.has(field.name)) continue;
    const value = row[field.name];
    if (value === undefined || value === null) out[field.name] = null;
    else if (field.kind === "datetime") out[field.name] = new Date(value as string | Date).toISOString();
    else if ((field.kind === "integer" || field.kind === "number") && typeof value === "string")
      out[field.name] = Number(value);
    else out[field.name] = value;
  }
  return out;
}

async function formerGet(record: RecordSpec, sid: string): Promise<string> {
  const [row] = await sqlRows<Record<string, unknown>>(orm.em.fork(), `select * from "${record.table}" where sid = ?`, [
    sid,
  ]);
  return JSON.stringify(formerWire(record, row!));
}

function fullValue(field: FieldSpec, n: number): unknown {
  switch (field.kind) {
    case "string":
      return `v${n} ${field.name} O'Brien "q" é`;
    case "integer":
      return 40 + n;
    case "number":
      return 1.25 + (n % 7); // numeric(5,4) columns hold less than 10
    case "boolean":
      return true;
    case "datetime":
      return new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678 + n));
    case "string[]":
      return ["a", `b'${n}`];
    case "json":
      return { a: [1, "x"], b: null, n };
  }
}

/** Records a session caller can own: owner fields are user ids, or a partner id it can leave empty. */
function ownable(record: RecordSpec): boolean {
  const nullable = (name: string) => record.fields.find((f) => f.name === name)?.nullable === true;
  return (
    record.owner.length > 0 && record.owner.every((f) => f.endsWith("user_id") || (f === "partner_id" && nullable(f)))
  );
}

/** Owner fields name the test's owner (session callers have no partner). */
function ownerValues(record: RecordSpec, userId: string): Record<string, unknown> {
  if (!ownable(record)) return {};
  return Object.fromEntries(record.owner.map((f) => [f, f === "partner_id" ? null : userId]));
}

const stored: Record<string, { full: string; sparse: string }> = {};

beforeAll(async () => {
  orm = await resetDatabase();
  let n = 0;
  for (const record of Object.values(RECORDS)) {
    n += 1;
    const full: Record<string, unknown> = {};
    const sparse: Record<string, unknown> = {};
    for (const field of record.fields) {
      full[field.name] = fullValue(field, n);
      sparse[field.name] = field.nullable ? null : initialValue(field);
    }
    for (const row of [full, sparse])
      Object.assign(row, { sid: uuidv7(), created_at: new Date(), updated_at: new Date() });
    Object.assign(full, ownerValues(record, OWNER));
    Object.assign(sparse, ownerValues(record, "someone-else"));
    // Rows generic CRUD can reach: inside the record's x-crud-scope (ApiKey: not the system-minted assistant key).
    for (const row of [full, sparse]) Object.assign(row, record.scope);
    await insertRow(orm, record.name as never, full);
    await insertRow(orm, record.name as never, sparse);
    stored[record.name] = { full: String(full["sid"]), sparse: String(sparse["sid"]) };
  }
}, 300_000);

const records = Object.values(RECORDS) as RecordSpec[];

describe("generic CRUD reads answer what they answered through the ORM", () => {
  test.each(records.map((r) => [r.name, r] as const))("get of %s, a full row and a sparse one", async (_, record) => {
    for (const sid of [stored[record.name]!.full, stored[record.name]!.sparse]) {
      const answer = await crudHandlers.get(contextOf(admin), record, { sid });
      expect(JSON.stringify(answer)).toBe(await formerGet(record, sid));
    }
    if (ownable(record)) {
      const sid = stored[record.name]!.full;
      const answer = await crudHandlers.get(contextOf(owner), record, { sid });
      expect(JSON.stringify(answer)).toBe(await formerGet(record, sid));
      await expect(
        crudHandlers.get(contextOf(owner), record, { sid: stored[record.name]!.sparse }),
      ).rejects.toMatchObject({ code: -32003 });
    }
  });

  test.each(records.map((r) => [r.name, r] as const))("find of %s on each indexed field", async (_, record) => {
    const { full, sparse } = stored[record.name]!;
    const rows = [JSON.parse(await formerGet(record, full)), JSON.parse(await formerGet(record, sparse))] as Record<
      string,
      unknown
    >[];
    rows.sort((a, b) => (String(a["sid"]) < String(b["sid"]) ? 1 : -1)); // newest sid first
    const hidden = new Set([...record.secret, ...record.private]);
    const usable = record.fields.filter(
      (f) => record.indexed.includes(f.name) && !hidden.has(f.name) && f.kind !== "json" && f.kind !== "string[]",
    );
    for (const field of usable) {
      const value = rows.find((r) => r["sid"] === full)![field.name];
      const { items } = await crudHandlers.find(contextOf(admin), record, {
        query: JSON.stringify({ [field.name]: value }),
      });
      const expected = rows.filter((r) => r[field.name] === value).map((r) => JSON.stringify(r));
      expect(items.map((i) => JSON.stringify(i))).toEqual(expected);
    }
  });

  test("list answers the sids newest first, the same whichever columns it reads", async () => {
    const record = RECORDS.DigitalResident as RecordSpec;
    const { sids } = await crudHandlers.list(contextOf(admin), record, { limit: 10 });
    const former = await sqlRows<{ sid: string }>(
      orm.em.fork(),
      `select * from "digital_resident" order by "sid" desc limit 11`,
    );
    expect(sids).toEqual(former.map((r) => r.sid));
  });
});

describe("the select a read runs", () => {
  const record = RECORDS.User as RecordSpec;

  test("names the wire's columns only: secret and private columns never leave the database", () => {
    const { text } = selectSql(record, { columns: "wire", where: [["sid", "x"]] });
    for (const hidden of [...record.secret, ...record.private]) expect(text).not.toContain(`"${hidden}"`);
    expect(text).toContain(`"email"`);
    expect(text).not.toContain("*");
  });

  test("binds every value, the page size too, and says `is null` for a null", () => {
    const { text, params } = selectSql(record, {
      columns: "sid",
      where: [
        ["email", "a'b@example.org"],
        ["first_name", null],
      ],
      page: { before: "0192", limit: 51 },
    });
    expect(text).toBe(
      `select "sid" from "user" where "email" = $1 and "first_name" is null and "sid" < $2 order by "sid" desc limit $3`,
    );
    expect(params).toEqual(["a'b@example.org", "0192", 51]);
  });

  test("find conditions in any key order make one statement text", async () => {
    const resident = RECORDS.DigitalResident as RecordSpec;
    const sid = stored[resident.name]!.full;
    const wire = JSON.parse(await formerGet(resident, sid)) as Record<string, unknown>;
    const [a, b] = resident.indexed.filter((f) => wire[f] !== null && typeof wire[f] === "string").slice(0, 2);
    const texts = new Set<string>();
    for (const query of [
      { [a!]: wire[a!], [b!]: wire[b!] },
      { [b!]: wire[b!], [a!]: wire[a!] },
    ]) {
      const { items } = await crudHandlers.find(contextOf(admin), resident, { query: JSON.stringify(query) });
      expect(items.map((i) => i["sid"])).toEqual([sid]);
      texts.add(selectSql(resident, { columns: "wire", where: canonical(resident, query) }).text);
    }
    expect(texts.size).toBe(1);
  });
});
