import type { AbstractSqlConnection } from "@mikro-orm/knex";
import type { MikroORM } from "@mikro-orm/postgresql";
import { Gauge, type Registry } from "prom-client";
import { ormBackend } from "../db/orm.ts";
import { countOpenApprovals } from "../repos/mcp-approvals.ts";
import type { Runtime } from "../rpc/runtime.ts";

/** The knex (tarn) pool under the ORM: on PGlite it holds the one embedded session (min 1, max 1). */
interface TarnPool {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

function poolOf(orm: MikroORM): TarnPool | null {
  const connection = orm.em.getConnection() as unknown as AbstractSqlConnection;
  const client = connection.getKnex().client as { pool?: TarnPool | null };
  return client.pool ?? null;
}

/** `freezone_mcp_approvals_pending`: counted in the approvals table when scraped. */
function registerApprovalsGauge(runtime: Runtime, registry: Registry): void {
  new Gauge({
    name: "freezone_mcp_approvals_pending",
    help: "MCP approvals waiting for their owner's decision (pending and not lapsed)",
    registers: [registry],
    async collect() {
      this.set(await countOpenApprovals(runtime.orm.em.fork(), runtime.config.clock()));
    },
  });
}

/**
 * `freezone_db_pool_connections{backend, state}` and `freezone_db_pool_max{backend}`: the ORM's connection pool
 * (PostgreSQL: up to max connections; PGlite: the one embedded session, `used` while a query or transaction holds it).
 */
function registerPoolGauges(orm: MikroORM, registry: Registry): void {
  const backend = ormBackend(orm);
  new Gauge({
    name: "freezone_db_pool_connections",
    help: "Database pool: connections in use, idle, and requests waiting to acquire or create one",
    labelNames: ["backend", "state"],
    registers: [registry],
    collect() {
      const pool = poolOf(orm);
      this.set({ backend, state: "used" }, pool?.numUsed() ?? 0);
      this.set({ backend, state: "free" }, pool?.numFree() ?? 0);
      this.set({ backend, state: "pending_acquire" }, pool?.numPendingAcquires() ?? 0);
      this.set({ backend, state: "pending_create" }, pool?.numPendingCreates() ?? 0);
    },
  });
  new Gauge({
    name: "freezone_db_pool_max",
    help: "Database pool: the most connections it opens (1 on PGlite: a single embedded session)",
    labelNames: ["backend"],
    registers: [registry],
    collect() {
      this.set({ backend }, poolOf(orm)?.max ?? 0);
    },
  });
}

export function registerStateGauges(runtime: Runtime, registry: Registry): void {
  registerApprovalsGauge(runtime, registry);
  registerPoolGauges(runtime.orm, registry);
}
