import type { PGlite } from "@electric-sql/pglite";
import type { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import type { Logger } from "pino";
import { ormBackend } from "./orm.ts";

/**
 * The channels the database notifies (triggers of migrations mcp_policy_notify and key_cache_notify):
 * `freezone_api_key` carries the sid of a changed or deleted api_key row; `freezone_key_owner` carries
 * `user:<sid>` or `partner:<sid>` (a change that decides a key's caller or refusal), or `all` (a table truncated).
 */
export const CHANNELS = { apiKey: "freezone_api_key", keyOwner: "freezone_key_owner" } as const;
const LISTENED = Object.values(CHANNELS);
/** The `freezone_key_owner` payload of a truncated table: every cached entry goes. */
export const ALL = "all";

const RECONNECT_MS = 1000;

/** The listener's `application_name` in pg_stat_activity: `freezone-listener`, with the schema when one is set. */
export function listenerApplicationName(orm: MikroORM): string {
  const schema = orm.config.get("schema");
  return schema ? `freezone-listener:${schema}` : "freezone-listener";
}

/** What a cache hears: each notification, and whether every change is being heard (else it must not cache). */
export interface NotificationSubscriber {
  notify(channel: string, payload: string): void;
  /** Called on every change of `listening`; a cache drops everything either way (it may have missed a change). */
  listening(up: boolean): void;
}

/**
 * One LISTEN per instance (per ORM), shared by the caches that drop entries on database changes. PostgreSQL: a
 * connection of its own, reconnected a second after it is lost; while it is down `listening` is false, and the
 * caches bypass themselves (fail closed). PGlite: the database is in-process and its notifications are delivered
 * with the result of the statement that committed the change, so the caches drop entries at once.
 */
export class NotificationListener {
  private static readonly byOrm = new WeakMap<MikroORM, NotificationListener>();

  private readonly subscribers = new Set<NotificationSubscriber>();
  private up = false;
  private users = 0;
  private closed = false;
  private client: pg.Client | null = null;
  private stopPglite: (() => void) | null = null;
  private readonly ready: Promise<void>;

  private constructor(
    private readonly orm: MikroORM,
    private readonly log: Logger,
  ) {
    this.ready = this.connect();
  }

  /** The ORM's listener, started on first use; `release` it once per `acquire`. Resolves once it first tried. */
  static async acquire(orm: MikroORM, log: Logger): Promise<NotificationListener> {
    let listener = NotificationListener.byOrm.get(orm);
    if (!listener) {
      listener = new NotificationListener(orm, log);
      NotificationListener.byOrm.set(orm, listener);
    }
    listener.users++;
    await listener.ready;
    return listener;
  }

  get listening(): boolean {
    return this.up;
  }

  subscribe(subscriber: NotificationSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  async release(): Promise<void> {
    if (--this.users > 0) return;
    NotificationListener.byOrm.delete(this.orm);
    this.closed = true;
    this.setUp(false);
    this.stopPglite?.();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private setUp(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    for (const s of this.subscribers) s.listening(up);
  }

  /**
   * Hands a change this instance is making to every subscriber at once (both key caches), without waiting for the
   * database's notification: that reaches the listener only after the commit, a few milliseconds after the caller
   * may have its answer and send the next request. Other instances still rely on the notification.
   */
  announce(channel: string, payload: string): void {
    this.deliver(channel, payload);
  }

  private deliver(channel: string, payload: string): void {
    for (const s of this.subscribers) s.notify(channel, payload);
  }

  private connect(): Promise<void> {
    if (ormBackend(this.orm) === "pglite") return this.listenOnPglite();
    return this.listenOnPostgres();
  }

  /**
   * LISTEN goes through the ORM's one connection (the pool), so it never lands inside another caller's transaction
   * (a rollback there would undo it); the notifications come back through PGlite's own callback.
   */
  private async listenOnPglite(): Promise<void> {
    const pglite = (this.orm.config.get("driverOptions") as { pglite?: PGlite } | undefined)?.pglite;
    if (!pglite) {
      this.log.warn("notifications: no PGlite instance found; caches stay off");
      return;
    }
    try {
      this.stopPglite = pglite.onNotification((channel, payload) => this.deliver(channel, payload));
      for (const channel of LISTENED) await this.orm.em.getConnection().execute(`listen ${channel}`);
      if (!this.closed) this.setUp(true);
    } catch (err) {
      this.stopPglite?.();
      this.stopPglite = null;
      this.log.warn({ err }, "notifications: cannot listen on PGlite; caches stay off");
    }
  }

  private async listenOnPostgres(): Promise<void> {
    const url = this.orm.config.get("clientUrl");
    if (!url || this.closed) return;
    const client = new pg.Client({
      connectionString: url,
      application_name: listenerApplicationName(this.orm),
      keepAlive: true,
    });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = null;
      this.setUp(false);
      if (err) this.log.warn({ err }, "notifications: listener lost; caches off until it reconnects");
      void client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.listenOnPostgres(), RECONNECT_MS).unref();
    };
    try {
      client.on("notification", (message) => this.deliver(message.channel, message.payload ?? ""));
      client.on("error", lost);
      client.on("end", () => lost());
      this.client = client;
      await client.connect();
      for (const channel of LISTENED) await client.query(`listen ${channel}`);
      if (this.client === client && !this.closed) this.setUp(true);
    } catch (err) {
      if (this.client !== client) return; // lost() saw it first and retries
      this.client = null;
      this.log.warn({ err }, "notifications: cannot listen; caches off until it connects");
      await client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.listenOnPostgres(), RECONNECT_MS * 5).unref();
    }
  }
}
