import { randomBytes } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import { sha256Hex } from "../../src/auth/tokens.ts";
import { insertRow } from "./rows.ts";

export interface TestKey {
  key: string;
  keyId: string;
}

/**
 * Inserts a personal API key row (the shape apikeyservice.generate_personal stores: `fz_u_` + 32 random bytes in
 * base64url, SHA-256 hex stored, 365-day expiry, the seed's tier-policy defaults) and returns the plaintext.
 * Overrides set any ApiKey field, such as mcp_scope or the limits.
 */
export async function insertApiKey(
  orm: MikroORM,
  userId: string,
  overrides: Record<string, unknown> = {},
): Promise<TestKey> {
  const key = `fz_u_${randomBytes(32).toString("base64url")}`;
  const row = await insertRow(orm, "ApiKey", {
    key_hash: sha256Hex(key),
    name: "test key",
    user_id: userId,
    is_active: true,
    expires_at: new Date("2027-11-23T10:00:00.000Z"), // 365 days after the test clock's start
    mcp_scope: "readwrite",
    max_transaction_amount: 100,
    daily_spending_limit: 500,
    monthly_spending_limit: 2000,
    max_calls_per_hour: 60,
    max_calls_per_day: 500,
    prefix: "fz_u_",
    ...overrides,
  });
  return { key, keyId: String(row["sid"]) };
}
