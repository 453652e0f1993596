import { parseArgs } from "node:util";
import { createFirstAdmin } from "../../src/auth/admin-bootstrap.ts";
import type { Config } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { closeOrm } from "../../src/db/orm.ts";
import { migrationProgress } from "./migration-progress.ts";

/** `create-admin --email <email> --password <password>`: the first administrator, when none exists. */
export async function createAdmin(args: string[], config: Config): Promise<number> {
  const { values } = parseArgs({ args, options: { email: { type: "string" }, password: { type: "string" } } });
  if (!values.email || !values.password) {
    console.error("create-admin needs --email and --password");
    return 2;
  }
  const orm = await openDatabase(config, migrationProgress);
  try {
    const outcome = await createFirstAdmin(orm.em.fork(), config, values.email, values.password);
    const text = {
      created: `administrator ${values.email} created`,
      exists: "an administrator already exists; nothing changed",
      "email-taken": `${values.email} belongs to an existing user; nothing changed`,
    }[outcome];
    console.log(text);
    return outcome === "created" ? 0 : 1;
  } finally {
    await closeOrm(orm);
  }
}
