import type { MikroORM } from "@mikro-orm/postgresql";
import { expect } from "vitest";
import { newToken, sha256Hex, TOKEN_PREFIX } from "../../src/auth/tokens.ts";
import { type CallReply, PASSWORD, type RpcErrorBody, type TestApp } from "./app.ts";
import { insertRow } from "./rows.ts";

/** A test app, or a bare ORM for tests that run apps of their own. */
export type Db = Pick<TestApp, "app"> | MikroORM;

const ormOf = (db: Db): MikroORM => ("app" in db ? db.app.runtime.orm : db);

/** Raw SQL against the test database, for checking what was (not) written or setting up what no operation can. */
export async function sql<T = any>(db: Db, query: string, params: unknown[] = []): Promise<T[]> {
  return ormOf(db).em.fork().getConnection().execute<T[]>(query, params);
}

export async function count(db: Db, table: string, where = "true", params: unknown[] = []): Promise<number> {
  const rows = await sql<{ n: string }>(db, `select count(*) as n from "${table}" where ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Asserts a reply is a JSON-RPC error (the API.md shape) and returns the error object. Takes the untyped
 * `rpc()` reply as well as the typed `call()` one.
 */
export function errorOf(
  reply: { error?: RpcErrorBody | undefined; body?: unknown } | { result: unknown },
): RpcErrorBody {
  if ("error" in reply && reply.error) return reply.error;
  throw new Error(`expected an error, got ${JSON.stringify("body" in reply ? reply.body : reply)}`);
}

export interface TestKey {
  /** The plaintext key, as the X-API-Key header carries it. */
  key: string;
  /** The ApiKey row's sid. */
  keyId: string;
}

/**
 * Inserts a personal API key row (the shape apikeyservice.generate_personal stores: an `fz_u_` token, its SHA-256
 * hex stored, 365-day expiry from the test clock's start, the seed's tier-policy limits) with MCP readwrite access,
 * and returns the plaintext and the sid. Overrides set any ApiKey field (`mcp_scope: null` for no MCP access,
 * `is_active`, `expires_at`, the limits...).
 */
export async function insertApiKey(
  orm: MikroORM,
  userId: string,
  overrides: Record<string, unknown> = {},
): Promise<TestKey> {
  const key = newToken(TOKEN_PREFIX.personalKey);
  const row = await insertRow(orm, "ApiKey", {
    key_hash: sha256Hex(key),
    name: "test key",
    user_id: userId,
    is_active: true,
    expires_at: new Date("2027-11-23T10:00:00.000Z"),
    mcp_scope: "readwrite",
    max_transaction_amount: 100,
    daily_spending_limit: 500,
    monthly_spending_limit: 2000,
    max_calls_per_hour: 60,
    max_calls_per_day: 500,
    prefix: TOKEN_PREFIX.personalKey,
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

/**
 * The reply is the error `code` (its data naming the error `type` and `variant` when given) and nothing was
 * written: `writes` (a snapshot of every table the call may write) reads the same before and after.
 */
export async function refusedNoWrite(
  writes: () => Promise<unknown>,
  call: () => Promise<CallReply<unknown>>,
  code: number,
  data: { type: string; variant: string } | null,
): Promise<void> {
  const before = await writes();
  const err = errorOf(await call());
  expect(err.code, JSON.stringify(err)).toBe(code);
  if (data !== null) expect(err.data, JSON.stringify(err)).toMatchObject(data);
  expect(await writes()).toEqual(before);
}

/** The one DocumentAudience row of a document (there must be exactly one). */
export async function oneAudience(db: Db, documentRef: string): Promise<Record<string, any>> {
  const rows = await sql(db, `select * from "document_audience" where document_ref = ?`, [documentRef]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

/** The classification of a company-members audience, sorted. */
export const COMPANY_MEMBERS = ["director", "founder", "founding_member", "platinum_member", "shareholder"].sort();
