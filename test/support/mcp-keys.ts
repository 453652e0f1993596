import { randomBytes } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import { sha256Hex } from "../../src/auth/tokens.ts";
import { PASSWORD } from "./app.ts";
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

/**
 * A personal key minted by the real operation (apikeyservice.generate_personal, with the account password), as a
 * user would in the AI settings. `mcp_scope` defaults to readwrite here; pass null for a key without MCP access.
 */
export async function generateKey(
  client: { rpc(method: string, params?: unknown): Promise<{ result: any; error: unknown }> },
  policy: Record<string, unknown> = {},
): Promise<TestKey> {
  const params: Record<string, unknown> = { name: "agent key", password: PASSWORD, mcp_scope: "readwrite", ...policy };
  if (params["mcp_scope"] === null) delete params["mcp_scope"];
  const r = await client.rpc("apikeyservice.generate_personal", params);
  if (!r.result) throw new Error(`generate_personal failed: ${JSON.stringify(r.error)}`);
  return { key: r.result.api_key, keyId: r.result.key_id };
}
