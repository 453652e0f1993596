import type { MikroORM } from "@mikro-orm/postgresql";
import { RECORDS, type RecordName } from "../../generated/crud.ts";
import { initialValue } from "../../src/crud/rows.ts";
import { uuidv7 } from "../../src/domain/ids.ts";
import { nameKey } from "../../src/domain/name-key.ts";

/** Inserts a row straight into the database (for records whose business operations belong to other issues). */
export async function insertRow(
  orm: MikroORM,
  record: RecordName,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const spec = RECORDS[record];
  const now = new Date("2026-11-23T09:00:00.000Z");
  const row: Record<string, unknown> = {};
  for (const field of spec.fields) row[field.name] = initialValue(field);
  Object.assign(row, { sid: uuidv7(), created_at: now, updated_at: now }, values);
  // The key is derived where the server writes the row (src/domain/name-key.ts); a fixture row derives it the same way.
  if ("name_key" in row && !("name_key" in values)) row["name_key"] = nameKey(String(row["name"]));
  const em = orm.em.fork();
  em.create(record, row);
  await em.flush();
  return row;
}

let residentCounter = 0;

export function residentValues(userId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  residentCounter += 1;
  return {
    resident_id: `FZ-2026-RA${String(residentCounter).padStart(6, "0")}`,
    user_id: userId,
    partner_id: null,
    email: `resident${residentCounter}@example.org`,
    first_name: "Ada",
    last_name: "Lovelace",
    phone: "+255700000000",
    kyc_provider_id: "",
    status: "active",
    encrypted_private_key: "aa:bb",
    ...extra,
  };
}
