import { parseArgs } from "node:util";
import { createFirstAdmin } from "../src/auth/admin-bootstrap.ts";
import { ConfigError, loadConfig } from "../src/config.ts";
import { DataDirInUseError, openDatabase } from "../src/db/database.ts";
import { withKeyFile } from "../src/db/key-file.ts";
import { closeOrm } from "../src/db/orm.ts";

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  create-admin --email <email> --password <password>   create the first administrator (when none exists)
  outbox [--limit N]                                   show the newest emails in the outbox`;

async function run(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const config = withKeyFile(loadConfig());
  if (command === "create-admin") {
    const { values } = parseArgs({ args: rest, options: { email: { type: "string" }, password: { type: "string" } } });
    if (!values.email || !values.password) {
      console.error("create-admin needs --email and --password");
      return 2;
    }
    const orm = await openDatabase(config);
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
  if (command === "outbox") {
    const { values } = parseArgs({ args: rest, options: { limit: { type: "string", default: "20" } } });
    const orm = await openDatabase(config);
    try {
      const rows = await orm.em
        .fork()
        .getConnection()
        .execute(
          `select created_at, to_email, subject, status, body_text from "email_outbox" order by sid desc limit ?`,
          [Number(values.limit)],
        );
      for (const row of rows)
        console.log(
          `${new Date(row.created_at).toISOString()} ${row.status} to ${row.to_email}: ${row.subject}\n${row.body_text}\n`,
        );
      if (rows.length === 0) console.log("the outbox is empty");
      return 0;
    } finally {
      await closeOrm(orm);
    }
  }
  console.error(USAGE);
  return 2;
}

run()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof DataDirInUseError) {
      console.error(err.message);
      process.exit(2);
    }
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
