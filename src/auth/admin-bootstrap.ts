import type { EntityManager } from "@mikro-orm/postgresql";
import type { Config } from "../config.ts";
import { countAdmins } from "../repos/users.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { createUser, findUserByEmail } from "./users.ts";

export type AdminOutcome = "created" | "exists" | "email-taken";

/**
 * Creates the first administrator unless one exists. Idempotent, and never changes an existing account:
 * when any administrator exists nothing happens; when the email belongs to a plain user it is left alone.
 */
export async function createFirstAdmin(
  em: EntityManager,
  config: Config,
  email: string,
  password: string,
): Promise<AdminOutcome> {
  if ((await countAdmins(em)) > 0) return "exists";
  if (await findUserByEmail(em, email)) return "email-taken";
  await createUser(em, config, config.clock(), { email, password, roles: ["user", "admin"] });
  return "created";
}

/** ADMIN_EMAIL and ADMIN_PASSWORD at start create the first administrator when none exists. */
export async function ensureAdminFromConfig(runtime: Runtime): Promise<void> {
  const { config, orm, log } = runtime;
  if (!config.adminEmail || !config.adminPassword) return;
  const outcome = await createFirstAdmin(orm.em.fork(), config, config.adminEmail, config.adminPassword);
  if (outcome === "created") log.info({ email: config.adminEmail }, "first administrator created");
  if (outcome === "email-taken")
    log.warn({ email: config.adminEmail }, "ADMIN_EMAIL belongs to an existing user; not changed");
}
