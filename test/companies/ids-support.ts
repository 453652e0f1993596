import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { ZoneCompanyRow } from "../../generated/entities.ts";
import type { Config } from "../../src/config.ts";
import { sqlRows } from "../../src/db/sql.ts";
import { uuidv7 } from "../../src/domain/ids.ts";
import type { RpcContext } from "../../src/rpc/context.ts";
import { createCompanyRow, type NewCompany } from "../../src/services/shared/new-company.ts";
import { insertRow } from "../support/rows.ts";

/** createCompanyRow on `em` with what it reads of a call context (em, id prefix, clock). */
export function mintIn(em: EntityManager, now: Date, fields: Partial<NewCompany> = {}): Promise<ZoneCompanyRow> {
  const ctx = { em, config: { idPrefix: "FZ" } as Config, now: () => now } as unknown as RpcContext;
  return createCompanyRow(ctx, {
    user_id: "user-1",
    partner_id: null,
    name: "Acme FZC",
    company_type: "single_fzc",
    address: { line1: "1 Shangani", line2: null, city: "Stone Town", region: null, postal_code: null, country: "TZ" },
    ...fields,
  });
}

/** One creation in a transaction of its own, as one call. */
export function mint(orm: MikroORM, now: Date, fields: Partial<NewCompany> = {}): Promise<ZoneCompanyRow> {
  return orm.em.fork().transactional((em) => mintIn(em, now, fields));
}

/** Sets a counter row (e.g. `FZ-2026-Y`) to `value`: the next mint takes the number after it. */
export async function setCounter(orm: MikroORM, name: string, value: number): Promise<void> {
  const now = new Date("2026-01-01T00:00:00.000Z");
  await sqlRows(
    orm.em.fork(),
    `insert into counter (sid, name, value, created_at, updated_at) values (?, ?, ?, ?, ?)
     on conflict (name) do update set value = excluded.value`,
    [uuidv7(now), name, value, now, now],
  );
}

export async function counterValue(orm: MikroORM, name: string): Promise<number> {
  const rows = await sqlRows<{ value: string }>(orm.em.fork(), "select value from counter where name = ?", [name]);
  return Number(rows[0]?.value);
}

/** A company whose id is already in use (made elsewhere: an earlier cycle, an import). */
export async function companyInUse(orm: MikroORM, companyId: string): Promise<void> {
  await insertRow(orm, "ZoneCompany", {
    company_id: companyId,
    user_id: "user-0",
    partner_id: null,
    name: `In use ${companyId}`,
    company_type: "single_fzc",
    address: { line1: "2 Forodhani", line2: null, city: "Stone Town", region: null, postal_code: null, country: "TZ" },
    external_id: `FZX-used-${companyId}`,
  });
}

export const numberOf = (companyId: string) => Number(companyId.slice(-6));
