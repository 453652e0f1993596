import { parseArgs } from "node:util";
import pino from "pino";
import { createApp } from "../../src/app/create-app.ts";
import { createFirstAdmin } from "../../src/auth/admin-bootstrap.ts";
import { type Config, DEFAULT_WEBHOOK_SECRET } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { closeOrm } from "../../src/db/orm.ts";
import { progress } from "../progress.ts";
import { RpcClient, type Send, Session } from "../seed-demo/client.ts";
import { DEMO_DOMAIN, DEMO_PASSWORD } from "../seed-demo/plan.ts";
import type { Sandbox } from "../seed-demo/sandbox.ts";
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

export interface SeedOptions {
  /** The administrator who signs in (to read the sandbox outbox); null: none, the steps needing one are skipped. */
  admin: { email: string; password: string } | null;
  /** The sandbox providers' webhook secret and the server's clock; null: KYC and payments are skipped. */
  sandbox: Sandbox | null;
}

/** The administrator's session, or a line saying why there is none. */
async function adminSession(rpc: RpcClient, admin: SeedOptions["admin"]): Promise<Session | SeedLine> {
  if (!admin) return { created: false, text: "administrator: none signs in; email verification skipped" };
  const login = await rpc.call("authservice.login", admin);
  if ("result" in login && "access_token" in login.result) return rpc.as(login.result.access_token);
  return { created: false, text: `administrator ${admin.email} does not sign in (password, or a second factor)` };
}

/** Seeds through `send` (an in-process app or a running server); returns the report's lines. */
export async function seedThrough(send: Send, base: string, options: SeedOptions): Promise<SeedLine[]> {
  const bar = progress("seed-demo", SEED_STEPS);
  const rpc = new RpcClient(send, base);
  const admin = await adminSession(rpc, options.admin);
  const lines = await seedDemo({ rpc, admin: admin instanceof Session ? admin : null, sandbox: options.sandbox }, bar);
  if (!(admin instanceof Session)) lines.unshift(admin);
  bar.done(`${lines.filter((l) => l.created).length} created`);
  return lines;
}

type Admin = { line: SeedLine; credentials: SeedOptions["admin"] };

/** The administrator: ADMIN_EMAIL's (made at start), else the demo administrator, made when no administrator exists. */
async function ensureAdmin(config: Config, app: Awaited<ReturnType<typeof createApp>>): Promise<Admin> {
  if (config.adminEmail && config.adminPassword) {
    const credentials = { email: config.adminEmail, password: config.adminPassword };
    return { line: { created: false, text: `administrator ${config.adminEmail} (from ADMIN_EMAIL)` }, credentials };
  }
  const credentials = { email: DEMO_ADMIN, password: DEMO_PASSWORD };
  const outcome = await createFirstAdmin(app.runtime.orm.em.fork(), config, DEMO_ADMIN, DEMO_PASSWORD);
  if (outcome === "created") {
    return { line: { created: true, text: `administrator ${DEMO_ADMIN} (password ${DEMO_PASSWORD})` }, credentials };
  }
  const text = "administrator: one exists already (the demo's, or ADMIN_EMAIL's / create-admin's)";
  return { line: { created: false, text }, credentials };
}

/** With --url: the administrator of ADMIN_EMAIL / ADMIN_PASSWORD, and the server's WEBHOOK_SECRET (else the sandbox default). */
export function remoteOptions(env: NodeJS.ProcessEnv): SeedOptions {
  const email = env["ADMIN_EMAIL"];
  const password = env["ADMIN_PASSWORD"];
  return {
    admin: email && password ? { email, password } : null,
    sandbox: { secret: env["WEBHOOK_SECRET"] || DEFAULT_WEBHOOK_SECRET, now: () => new Date() },
  };
}

/**
 * `seed-demo [--url <base>]`: without --url, an in-process app on the configured database (not while `npm start`
 * holds the PGlite data directory); with --url, the running server at that address.
 */
export async function seedDemoCommand(args: string[], config: () => Config): Promise<number> {
  const { values } = parseArgs({ args, options: { url: { type: "string" } } });
  if (values.url) {
    const base = values.url.replace(/\/+$/, "");
    const options = remoteOptions(process.env);
    const lines = await seedThrough((request) => fetch(request), base, options);
    if (options.admin && !lines[0]?.text.startsWith("administrator")) {
      lines.unshift({ created: false, text: `administrator ${options.admin.email} (from ADMIN_EMAIL)` });
    }
    report(lines);
    return 0;
  }
  const settings = config();
  const orm = await openDatabase(settings, migrationProgress);
  try {
    const app = await createApp(settings, { orm, log: pino({ level: "silent" }) });
    try {
      const admin = await ensureAdmin(settings, app);
      const sandbox = { secret: settings.webhookSecret, now: settings.clock };
      const options = { admin: admin.credentials, sandbox };
      report([admin.line, ...(await seedThrough(app.fetch, "http://seed-demo", options))]);
      return 0;
    } finally {
      await app.close();
    }
  } finally {
    await closeOrm(orm);
  }
}
