import type { MikroORM } from "@mikro-orm/postgresql";
import { RECORDS, type RecordName } from "../../generated/crud.ts";
import { initialValue } from "../../src/crud/rows.ts";
import { uuidv7 } from "../../src/domain/ids.ts";

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

/** A personal API key row for `userId`; returns the plaintext key. */
export async function insertApiKey(
  orm: MikroORM,
  userId: string,
  values: Record<string, unknown> = {},
): Promise<string> {
  const { newToken, sha256Hex, TOKEN_PREFIX } = await import("../../src/auth/tokens.ts");
  const key = newToken(TOKEN_PREFIX.personalKey);
  await insertRow(orm, "ApiKey", {
    key_hash: sha256Hex(key),
    name: "test key",
    user_id: userId,
    is_active: true,
    prefix: TOKEN_PREFIX.personalKey,
    expires_at: new Date("2027-11-23T00:00:00.000Z"),
    ...values,
  });
  return key;
}
