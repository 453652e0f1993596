import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import type { Logger } from "pino";
import { ormBackend } from "../db/orm.ts";
import { findKeyPolicy } from "../repos/api-keys.ts";
import { type KeyPolicy, policyFromRow } from "./policy.ts";

const CHANNEL = "freezone_api_key";
const RECONNECT_MS = 1000;
async function loadPolicy(em: EntityManager, keyId: string): Promise<KeyPolicy | null> {
  const row = await findKeyPolicy(em, keyId);
  return row ? policyFromRow(row) : null;
}

/**
 * The MCP policy of each key, cached per instance while this instance LISTENs to `freezone_api_key`: a trigger
 * (migration mcp_policy_notify) notifies every change of an api_key row, and every instance drops that key at
 * once. No listener (PGlite, or the connection is down): no caching, every call reads the row. Keys themselves
 * are still authenticated on every request (revocation never waits for this cache).
 */
export class PolicyCache {
  private readonly cache = new Map<string, KeyPolicy | null>();
  /** Bumped by every notification: a read that overlapped one is not cached (it may predate the change). */
  private generation = 0;
  private listener: pg.Client | null = null;
  private closed = false;

  private constructor(
    private readonly url: string | null,
    private readonly log: Logger,
  ) {}

  static async start(orm: MikroORM, log: Logger): Promise<PolicyCache> {
    const url = ormBackend(orm) === "postgresql" ? (orm.config.get("clientUrl") ?? null) : null;
    const cache = new PolicyCache(url, log);
    await cache.connect();
    return cache;
  }

  get caching(): boolean {
    return this.listener !== null;
  }

  /** `fresh` reads the row whatever is cached (the replay of an approved call checks the policy of that moment). */
  async get(em: EntityManager, keyId: string, fresh = false): Promise<KeyPolicy | null> {
    if (!fresh && this.listener && this.cache.has(keyId)) return this.cache.get(keyId) ?? null;
    const seen = this.generation;
    const policy = await loadPolicy(em, keyId);
    if (this.listener && seen === this.generation) this.cache.set(keyId, policy);
    return policy;
  }

  private drop(keyId: string | undefined): void {
    this.generation++;
    if (keyId) this.cache.delete(keyId);
  }

  private async connect(): Promise<void> {
    if (!this.url || this.closed) return;
    const client = new pg.Client({ connectionString: this.url, application_name: "freezone-mcp-policy" });
    const lost = (err?: unknown) => {
      if (this.listener !== client) return;
      this.listener = null;
      this.drop(undefined);
      this.cache.clear();
      if (err) this.log.warn({ err }, "MCP policy cache: listener lost; caching off until it reconnects");
      if (!this.closed) setTimeout(() => void this.connect(), RECONNECT_MS).unref();
    };
    try {
      client.on("notification", (message) => this.drop(message.payload));
      client.on("error", lost);
      client.on("end", () => lost());
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      this.cache.clear();
      this.listener = client;
    } catch (err) {
      this.log.warn({ err }, "MCP policy cache: cannot listen; every call reads the key's policy");
      await client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.connect(), RECONNECT_MS * 5).unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.listener;
    this.listener = null;
    this.cache.clear();
    await client?.end().catch(() => undefined);
  }
}
