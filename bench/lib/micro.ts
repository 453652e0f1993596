/**
 * `--profile` part 2: the pieces of the hot paths measured one at a time, sequentially, in this process, on the
 * same database and rows as the load runs: CPU and wall microseconds per operation. Prices what each change would
 * save (e.g. a findOne through MikroORM against one pg query), with far less noise than req/s on a shared machine.
 */
import { createWriteStream } from "node:fs";
import pg from "pg";
import { createLogger } from "../../src/app/logging.ts";
import { authenticateSession } from "../../src/auth/sessions.ts";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { closeOrm } from "../../src/db/orm.ts";
import { uuidv7 } from "../../src/domain/ids.ts";
import { BENCH_SECRETS } from "./children.ts";

export interface MicroFigure {
  name: string;
  cpuUs: number;
  wallUs: number;
}

async function time(name: string, n: number, op: () => unknown): Promise<MicroFigure> {
  for (let i = 0; i < Math.min(n, 500); i++) await op();
  const runs: MicroFigure[] = [];
  for (let round = 0; round < 3; round++) {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    for (let i = 0; i < n; i++) await op();
    const used = process.cpuUsage(cpu);
    runs.push({ name, cpuUs: (used.user + used.system) / n, wallUs: ((performance.now() - wall) * 1000) / n });
  }
  runs.sort((a, b) => a.cpuUs - b.cpuUs);
  const median = runs[1]!;
  return { name, cpuUs: Math.round(median.cpuUs * 10) / 10, wallUs: Math.round(median.wallUs * 10) / 10 };
}

export interface MicroInput {
  databaseUrl: string;
  schema: string;
  residentSid: string;
  userId: string;
  token: string;
  /** The trivial method's answer, to price its serialization. */
  trivialAnswer: unknown;
}

export async function microBench(input: MicroInput, log: (line: string) => void): Promise<MicroFigure[]> {
  const config = loadConfig({
    ...BENCH_SECRETS,
    DATABASE_URL: input.databaseUrl,
    DATABASE_SCHEMA: input.schema,
    LOG_LEVEL: "info",
  });
  const orm = await openDatabase(config);
  const pool = new pg.Pool({ connectionString: input.databaseUrl, options: `-c search_path=${input.schema},public` });
  const devNull = createWriteStream("/dev/null");
  const logger = createLogger(config, devNull);
  const where = { sid: input.residentSid, user_id: input.userId, partner_id: null };
  const select = `select * from "digital_resident" where sid = $1 and user_id = $2 and partner_id is null`;
  const out: MicroFigure[] = [];
  const add = async (name: string, n: number, op: () => unknown) => {
    const figure = await time(name, n, op);
    out.push(figure);
    log(`  ${name.padEnd(62)} ${String(figure.cpuUs).padStart(8)} us cpu ${String(figure.wallUs).padStart(8)} us wall`);
  };
  try {
    log("\n--- pieces, one at a time (median of 3 rounds)");
    await add("pg Pool: select the resident row (the floor)", 2000, () =>
      pool.query(select, [...Object.values(where).slice(0, 2)]),
    );
    await add("MikroORM raw execute, same select (knex raw path)", 2000, () =>
      orm.em.getConnection().execute(select.replaceAll(/\$\d/g, "?"), [input.residentSid, input.userId]),
    );
    await add("em.fork().findOne('DigitalResident', {sid, user_id, partner_id})", 2000, () =>
      orm.em.fork().findOne("DigitalResident", where),
    );
    await add("  same + em.flush() (what dispatch does after a read)", 2000, async () => {
      const em = orm.em.fork();
      await em.findOne("DigitalResident", where);
      await em.flush();
    });
    await add("  same with disableIdentityMap (nothing to flush)", 2000, () =>
      orm.em.fork().findOne("DigitalResident", where, { disableIdentityMap: true }),
    );
    await add("authenticateSession (raw SQL through MikroORM)", 2000, () =>
      authenticateSession(orm.em, input.token, new Date()),
    );
    await add("em.fork()", 20000, () => orm.em.fork());
    await add("pino info line (redaction on) to /dev/null", 20000, () =>
      logger.info({ requestId: "0192", method: "digitalresident.get", ms: 1.234, outcome: "ok" }, "rpc"),
    );
    await add("uuidv7() (request id when none is sent)", 20000, () => uuidv7());
    await add("JSON.stringify of the trivial method's answer", 20000, () => JSON.stringify(input.trivialAnswer));
  } finally {
    await pool.end();
    await closeOrm(orm);
    devNull.end();
  }
  return out;
}
