import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import { ALL, CHANNELS, NotificationListener } from "../db/notifications.ts";
import { findKeyPolicy } from "../repos/api-keys.ts";
import { type KeyPolicy, policyFromRow } from "./policy.ts";

async function loadPolicy(em: EntityManager, keyId: string): Promise<KeyPolicy | null> {
  const row = await findKeyPolicy(em, keyId);
  return row ? policyFromRow(row) : null;
}

/**
 * The MCP policy of each key, cached per instance while the instance's NotificationListener hears
 * `freezone_api_key`: a trigger (migration mcp_policy_notify) notifies every change of an api_key row, and every
 * instance drops that key at once. Listener down: no caching, every call reads the row.
 */
export class PolicyCache {
  private readonly cache = new Map<string, KeyPolicy | null>();
  /** Bumped by every notification: a read that overlapped one is not cached (it may predate the change). */
  private generation = 0;
  private readonly unsubscribe: () => void;
  private closed = false;

  private constructor(private readonly listener: NotificationListener) {
    this.unsubscribe = listener.subscribe({
      notify: (channel, payload) => {
        if (channel === CHANNELS.apiKey) this.drop(payload);
        else if (payload === ALL) this.clear();
      },
      listening: () => this.clear(),
    });
  }

  static async start(orm: MikroORM, log: Logger): Promise<PolicyCache> {
    return new PolicyCache(await NotificationListener.acquire(orm, log));
  }

  get caching(): boolean {
    return this.listener.listening;
  }

  /** Whether this key's policy is held (what the next `get` answers without reading the row). */
  holds(keyId: string): boolean {
    return this.caching && this.cache.has(keyId);
  }

  /** `fresh` reads the row whatever is cached (the replay of an approved call checks the policy of that moment). */
  async get(em: EntityManager, keyId: string, fresh = false): Promise<KeyPolicy | null> {
    if (!fresh && this.caching && this.cache.has(keyId)) return this.cache.get(keyId) ?? null;
    const seen = this.generation;
    const policy = await loadPolicy(em, keyId);
    if (this.caching && seen === this.generation) this.cache.set(keyId, policy);
    return policy;
  }

  private drop(keyId: string): void {
    this.generation++;
    this.cache.delete(keyId);
  }

  private clear(): void {
    this.generation++;
    this.cache.clear();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.clear();
    await this.listener.release();
  }
}
