import type { EntityManager } from "@mikro-orm/postgresql";
import {
  DigitalResidentEntity,
  type DigitalResidentRow,
  ZoneCompanyEntity,
  type ZoneCompanyRow,
} from "../../generated/entities.ts";
import type { EntityType } from "../../generated/types.ts";
import { dateOf, type FromSql, sqlRows } from "../db/sql.ts";

/**
 * The keypair columns of DigitalResident and ZoneCompany (public_key, encrypted_private_key, keypair_version), read
 * and written the same way for both kinds. The resident and company services own the rest of those tables.
 */

/** A resident's or company's owner pair and key columns, whatever its kind. */
export interface EntityKeys {
  entity_type: EntityType;
  entity_id: string;
  user_id: string | null;
  partner_id: string | null;
  public_key: string | null;
  encrypted_private_key: string | null;
  keypair_version: number;
  created_at: Date;
}

type KeyColumns = "user_id" | "partner_id" | "public_key" | "encrypted_private_key" | "keypair_version" | "created_at";
const KEY_COLUMNS = [
  "user_id",
  "partner_id",
  "public_key",
  "encrypted_private_key",
  "keypair_version",
  "created_at",
] as const;

function fromResident(r: Pick<DigitalResidentRow, "resident_id" | KeyColumns>): EntityKeys {
  return { entity_type: "resident", entity_id: r.resident_id, ...pickKeys(r) };
}

function fromCompany(c: Pick<ZoneCompanyRow, "company_id" | KeyColumns>): EntityKeys {
  return { entity_type: "company", entity_id: c.company_id, ...pickKeys(c) };
}

function pickKeys(r: Pick<DigitalResidentRow, KeyColumns> | Pick<ZoneCompanyRow, KeyColumns>) {
  return {
    user_id: r.user_id,
    partner_id: r.partner_id,
    public_key: r.public_key,
    encrypted_private_key: r.encrypted_private_key,
    keypair_version: r.keypair_version,
    created_at: r.created_at,
  };
}

/** A resident (by resident_id) or company (by company_id) with its key columns, or null. */
export async function findEntityKeys(em: EntityManager, type: EntityType, id: string): Promise<EntityKeys | null> {
  const options = { disableIdentityMap: true } as const;
  if (type === "resident") {
    const fields = ["resident_id", ...KEY_COLUMNS] as const;
    const row = await em.findOne(DigitalResidentEntity, { resident_id: id }, { ...options, fields });
    return row ? fromResident(row) : null;
  }
  const fields = ["company_id", ...KEY_COLUMNS] as const;
  const row = await em.findOne(ZoneCompanyEntity, { company_id: id }, { ...options, fields });
  return row ? fromCompany(row) : null;
}

/** The user's own resident under the pair (user_id, partner_id), the earliest if several. */
export async function ownResidentKeys(
  em: EntityManager,
  userId: string,
  partnerId: string | null,
): Promise<EntityKeys | null> {
  const row = await em.findOne(
    DigitalResidentEntity,
    { user_id: userId, partner_id: partnerId },
    { fields: ["resident_id", ...KEY_COLUMNS], orderBy: { sid: "asc" }, disableIdentityMap: true },
  );
  return row ? fromResident(row) : null;
}

const TABLE: Record<EntityType, { table: string; id: string }> = {
  resident: { table: "digital_resident", id: "resident_id" },
  company: { table: "zone_company", id: "company_id" },
};

export interface ReplacedKeys {
  /** keypair_version after the store. */
  version: number;
  /** The key and version that were replaced (public_key null on the first store). */
  previous: { public_key: string | null; keypair_version: number; created_at: Date };
}

/**
 * Stores a new pair and increments keypair_version, under a row lock taken first: concurrent stores on one entity
 * run one after the other, each getting the next version. Null when the entity is gone.
 */
export async function replaceEntityKeys(
  em: EntityManager,
  type: EntityType,
  id: string,
  keys: { public_key: string; encrypted_private_key: string },
  now: Date,
): Promise<ReplacedKeys | null> {
  const { table, id: idColumn } = TABLE[type];
  const [old] = await sqlRows<FromSql<ReplacedKeys["previous"]>>(
    em,
    `select public_key, keypair_version::int as keypair_version, created_at from "${table}" where "${idColumn}" = ? for update`,
    [id],
  );
  if (!old) return null;
  const [row] = await sqlRows<{ keypair_version: number }>(
    em,
    `update "${table}" set public_key = ?, encrypted_private_key = ?, keypair_version = keypair_version + 1, updated_at = ?
     where "${idColumn}" = ? returning keypair_version::int as keypair_version`,
    [keys.public_key, keys.encrypted_private_key, now, id],
  );
  return {
    version: Number(row?.keypair_version),
    previous: {
      public_key: old.public_key,
      keypair_version: Number(old.keypair_version),
      created_at: dateOf(old.created_at),
    },
  };
}
