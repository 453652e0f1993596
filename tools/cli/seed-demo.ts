import { parseArgs } from "node:util";
import pino from "pino";
import { createApp } from "../../src/app/create-app.ts";
import { createFirstAdmin } from "../../src/auth/admin-bootstrap.ts";
import type { Config } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { closeOrm } from "../../src/db/orm.ts";
import { progress } from "../progress.ts";
import { RpcClient, type Send } from "../seed-demo/client.ts";
import { DEMO_DOMAIN, DEMO_PASSWORD } from "../seed-demo/plan.ts";
import { SEED_STEPS, type SeedLine, seedDemo } from "../seed-demo/seed.ts";
import { migrationProgress } from "./migration-progress.ts";

export const DEMO_ADMIN = `admin@${DEMO_DOMAIN}`;

/** Prints the report; returns how many things were created. */
function report(lines: SeedLine[]): number {
  const created = lines.filter((l) => l.created).length;
  for (const line of lines) console.log(`${line.created ? "created " : "exists  "} ${line.text}`);
  console.log(
    created === 0
      ? "seed-demo: the demo zone is already there; nothing changed"
      : `seed-demo: ${created} created. Demo accounts only: their password is published; never seed production.`,
  );
  return created;
}

/** Seeds through `send` (an in-process app or a running server); returns the report's lines. */
export async function seedThrough(send: Send, base: string): Promise<SeedLine[]> {
  const bar = progress("seed-demo", SEED_STEPS);
  const lines = await seedDemo(new RpcClient(send, base), bar);
  bar.done(`${lines.filter((l) => l.created).length} created`);
  return lines;
}

/** The administrator: ADMIN_EMAIL's (made at start), else the demo administrator when no administrator exists. */
async function ensureAdmin(config: Config, app: Awaited<ReturnType<typeof createApp>>): Promise<SeedLine> {
  if (config.adminEmail) return { created: false, text: `administrator ${config.adminEmail} (from ADMIN_EMAIL)` };
  const outcome = await createFirstAdmin(app.runtime.orm.em.fork(), config, DEMO_ADMIN, DEMO_PASSWORD);
  if (outcome === "created") return { created: true, text: `administrator ${DEMO_ADMIN} (password ${DEMO_PASSWORD})` };
  return { created: false, text: "administrator: one exists already (create-admin or ADMIN_EMAIL)" };
}

/**
 * `seed-demo [--url <base>]`: without --url, an in-process app on the configured database (not while `npm start`
 * holds the PGlite data directory); with --url, the running server at that address.
 */
export async function seedDemoCommand(args: string[], config: () => Config): Promise<number> {
  const { values } = parseArgs({ args, options: { url: { type: "string" } } });
  if (values.url) {
    const base = values.url.replace(/\/+$/, "");
    const lines = await seedThrough((request) => fetch(request), base);
    lines.unshift({ created: false, text: "administrator: not managed with --url (ADMIN_EMAIL or create-admin)" });
    report(lines);
    return 0;
  }
  const settings = config();
  const orm = await openDatabase(settings, migrationProgress);
  try {
    const app = await createApp(settings, { orm, log: pino({ level: "silent" }) });
    try {
      const admin = await ensureAdmin(settings, app);
      report([admin, ...(await seedThrough(app.fetch, "http://seed-demo"))]);
      return 0;
    } finally {
      await app.close();
    }
  } finally {
    await closeOrm(orm);
  }
}
