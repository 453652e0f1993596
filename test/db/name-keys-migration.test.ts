import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ENTITIES } from "../../generated/entities.ts";
import { closeOrm, migrate, openOrm } from "../../src/db/orm.ts";
import { workerSchema } from "../support/database.ts";
import { sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

// Migration name_keys (issue 29 item 6) backfills the keys of rows written before it, with nameKey, and refuses a
// database whose registered companies already collide by key. Rows from before the migration can only be made by
// reverting it, on a database of this file's own, and changing a name by SQL (the old shape has no API).

const NAME_KEYS = "Migration20261202090000_name_keys";
const url = process.env["DATABASE_URL"];
const schema = `${workerSchema()}_nk`;
let orm: MikroORM;

beforeAll(async () => {
  orm = await openOrm({ entities: ENTITIES, ...(url ? { databaseUrl: url, schema } : {}) });
  if (url) await orm.em.getConnection().execute(`drop schema if exists "${schema}" cascade; create schema "${schema}"`);
  await migrate(orm);
}, 120_000);

afterAll(async () => {
  if (url) await orm.em.getConnection().execute(`drop schema if exists "${schema}" cascade`);
  await closeOrm(orm);
});

let n = 0;
const company = (name: string, status: string) => {
  n += 1;
  const id = `FZ-2026-Y00000${n}`;
  return insertRow(orm, "ZoneCompany", { company_id: id, name, status, external_id: `FZX-${id}` });
};

test("the keys of existing rows are backfilled; registered look-alikes stop it until all but one are voided", async () => {
  const harbour = await company("Harbour Software FZC", "active");
  const other = await company("Other Software FZC", "active");
  await company("Ｈａｒｂｏｕｒ Software FZC", "voided");
  await insertRow(orm, "PartnerConfiguration", { name: "Acme\u00a0Residency", client_id: "fzpc_nk" });
  await insertRow(orm, "TreasuryAccount", { owner_type: "company", owner_id: "FZ-x", name: "Main\u200b Account" });
  await orm.getMigrator().down({ to: NAME_KEYS });
  expect(await sql(orm, `select name from zone_company where name_key is not null`).catch(() => "no column")).toBe(
    "no column",
  );

  // Before the migration the look-alike of a live name was accepted beside it (the index was on lower(name)).
  await sql(orm, `update zone_company set name = ? where sid = ?`, ["Harbour Software FZC\u200b", other["sid"]]);
  await expect(orm.getMigrator().up()).rejects.toThrow(
    `look-alike names ("harbour software fzc": ${harbour["company_id"]}, ${other["company_id"]}); void all but one`,
  );

  await sql(orm, `update zone_company set status = 'voided' where sid = ?`, [other["sid"]]);
  await orm.getMigrator().up();
  expect(await sql(orm, `select name, name_key, status from zone_company order by company_id`)).toEqual([
    { name: "Harbour Software FZC", name_key: "harbour software fzc", status: "active" },
    { name: "Harbour Software FZC\u200b", name_key: "harbour software fzc", status: "voided" },
    { name: "Ｈａｒｂｏｕｒ Software FZC", name_key: "harbour software fzc", status: "voided" },
  ]);
  expect(await sql(orm, `select name, name_key from partner_configuration`)).toEqual([
    { name: "Acme\u00a0Residency", name_key: "acme residency" },
  ]);
  expect(await sql(orm, `select name, name_key from treasury_account`)).toEqual([
    { name: "Main\u200b Account", name_key: "main account" },
  ]);
  // The live-name index is on the key now.
  await expect(company("HARBOUR\u00a0SOFTWARE FZC", "suspended")).rejects.toThrow();
}, 120_000);
