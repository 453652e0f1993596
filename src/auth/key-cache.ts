import type { Configuration } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import { CHANNELS, NotificationListener } from "../db/notifications.ts";
import { findKeyByHash, type KeyWithOwner, lastUseDue, stampLastUsed } from "../repos/api-keys.ts";

/** Past this many keys the cache starts again empty (a bound on memory, not a policy). */
const MAX_ENTRIES = 10_000;

/** Index of the cached hashes by the id of a row they depend on (a key's owner or partner). */
class HashesBy {
  private readonly map = new Map<string, Set<string>>();
  add(id: string | null, hash: string): void {
    if (id === null) return;
    const hashes = this.map.get(id);
    if (hashes) hashes.add(hash);
    else this.map.set(id, new Set([hash]));
  }
  remove(id: string | null, hash: string): void {
    if (id === null) return;
    const hashes = this.map.get(id);
    hashes?.delete(hash);
    if (hashes?.size === 0) this.map.delete(id);
  }
  get(id: string): string[] {
    return [...(this.map.get(id) ?? [])];
  }
  clear(): void {
    this.map.clear();
  }
}

/**
 * The rows behind API keys (key, owner, partner), cached per instance by key hash while the instance's
 * NotificationListener hears every change: triggers notify a change or deletion of an api_key row (by key id), of a
 * user's email, roles or suspension (`user:<sid>`), of a partner's activity (`partner:<sid>`), and truncations
 * (`all`); each drops the entries it touches. Only facts are cached, never a decision: revocation, expiry,
 * suspension and partner activity are judged against `now` at every use. Unknown hashes are not cached (a new key
 * needs no notification). Listener down or not yet up: nothing is cached and every call reads the row (fail
 * closed); when it comes back the cache starts empty.
 */
export class KeyCache {
  private static readonly byConfig = new WeakMap<Configuration, KeyCache>();

  private readonly byHash = new Map<string, KeyWithOwner>();
  private readonly hashByKeyId = new Map<string, string>();
  private readonly byUser = new HashesBy();
  private readonly byPartner = new HashesBy();
  /** Bumped by every notification and listener change: a read that overlapped one is not cached. */
  private generation = 0;
  private users = 1;
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly orm: MikroORM,
    private readonly listener: NotificationListener,
    private readonly log: Logger,
  ) {
    this.unsubscribe = listener.subscribe({
      notify: (channel, payload) => this.invalidate(channel, payload),
      listening: () => this.clear(),
    });
  }

  /** The ORM's cache (one per instance, shared by the apps on that ORM); `close` it once per `start`. */
  static async start(orm: MikroORM, log: Logger): Promise<KeyCache> {
    const running = KeyCache.byConfig.get(orm.config);
    if (running) {
      running.users++;
      return running;
    }
    const cache = new KeyCache(orm, await NotificationListener.acquire(orm, log), log);
    const raced = KeyCache.byConfig.get(orm.config);
    if (raced) {
      await cache.release();
      raced.users++;
      return raced;
    }
    KeyCache.byConfig.set(orm.config, cache);
    return cache;
  }

  /** The cache of the ORM this entity manager belongs to; null when none was started (every call reads the row). */
  static of(em: EntityManager): KeyCache | null {
    return KeyCache.byConfig.get(em.config) ?? null;
  }

  get caching(): boolean {
    return this.listener.listening;
  }

  get size(): number {
    return this.byHash.size;
  }

  /** The cached row of this hash; null when not cached or not caching. */
  get(keyHash: string): KeyWithOwner | null {
    return this.caching ? (this.byHash.get(keyHash) ?? null) : null;
  }

  /** Reads the row and caches it, unless a notification came meanwhile (the read may predate that change). */
  async load(em: EntityManager, keyHash: string): Promise<KeyWithOwner | null> {
    const seen = this.generation;
    const row = await findKeyByHash(em, keyHash);
    if (row && this.caching && seen === this.generation) this.remember(keyHash, row);
    return row;
  }

  /**
   * Stamps a cached key's last use off the request, at most once per interval (the cached row remembers the
   * stamp, so concurrent requests do not all write). A failed write is logged, never lost silently.
   */
  touchLater(em: EntityManager, row: KeyWithOwner, now: Date): void {
    if (!lastUseDue(row, now)) return;
    row.last_used_at = now;
    stampLastUsed(em, row.sid, now).catch((err: unknown) =>
      this.log.error({ err, apiKeyId: row.sid }, "API key: last_used_at not written"),
    );
  }

  /**
   * Drops a key (`key:<sid>`) or an owner's keys (`user:<sid>`, `partner:<sid>`) at once, from the call that changes
   * them, in every cache of this instance (this one and the MCP policy cache): see NotificationListener.announce.
   */
  drop(ref: `key:${string}` | `user:${string}` | `partner:${string}`): void {
    const [kind, id = ""] = ref.split(":", 2);
    if (kind === "key") this.listener.announce(CHANNELS.apiKey, id);
    else this.listener.announce(CHANNELS.keyOwner, ref);
  }

  private remember(keyHash: string, row: KeyWithOwner): void {
    if (this.byHash.size >= MAX_ENTRIES) this.clear();
    this.forget(keyHash);
    this.byHash.set(keyHash, row);
    this.hashByKeyId.set(row.sid, keyHash);
    this.byUser.add(row.user_id, keyHash);
    this.byPartner.add(row.partner_id, keyHash);
  }

  private forget(keyHash: string | undefined): void {
    const row = keyHash === undefined ? undefined : this.byHash.get(keyHash);
    if (!row || keyHash === undefined) return;
    this.byHash.delete(keyHash);
    this.hashByKeyId.delete(row.sid);
    this.byUser.remove(row.user_id, keyHash);
    this.byPartner.remove(row.partner_id, keyHash);
  }

  private invalidate(channel: string, payload: string): void {
    this.generation++;
    if (channel === CHANNELS.apiKey) this.forget(this.hashByKeyId.get(payload));
    else if (channel === CHANNELS.keyOwner) this.forgetOwned(payload);
  }

  /** `user:<sid>` or `partner:<sid>`: their keys go; `all` (a truncation) or anything unknown: everything goes. */
  private forgetOwned(payload: string): void {
    const [kind, id = ""] = payload.split(":", 2);
    const index = kind === "user" ? this.byUser : kind === "partner" ? this.byPartner : null;
    if (index) for (const hash of index.get(id)) this.forget(hash);
    else this.clear();
  }

  private clear(): void {
    this.generation++;
    this.byHash.clear();
    this.hashByKeyId.clear();
    this.byUser.clear();
    this.byPartner.clear();
  }

  async close(): Promise<void> {
    if (this.users === 0 || --this.users > 0) return;
    KeyCache.byConfig.delete(this.orm.config);
    await this.release();
  }

  private async release(): Promise<void> {
    this.users = 0;
    this.unsubscribe();
    this.clear();
    await this.listener.release();
  }
}
