import { type Config, ConfigError, loadConfig } from "../src/config.ts";
import { DataDirInUseError } from "../src/db/database.ts";
import { withKeyFile } from "../src/db/key-file.ts";
import { createAdmin } from "./cli/create-admin.ts";
import { runMigrations } from "./cli/migrate.ts";
import { showOutbox } from "./cli/outbox.ts";
import { seedDemoCommand } from "./cli/seed-demo.ts";
import { SPEC_USAGE, specCommand } from "./cli/spec-diff.ts";

interface Command {
  usage: string;
  /** Runs the command; resolves to the process exit code. `config()` loads the server's configuration. */
  run(args: string[], config: () => Config): Promise<number>;
}

/** One entry per command: its implementation lives in tools/cli/<command>.ts. */
const COMMANDS: Record<string, Command> = {
  "create-admin": {
    usage: "create-admin --email <email> --password <password>   create the first administrator (when none exists)",
    run: (args, config) => createAdmin(args, config()),
  },
  migrate: {
    usage: "migrate                                              apply pending migrations (with progress)",
    run: (_args, config) => runMigrations(config()),
  },
  outbox: {
    usage: "outbox [--limit N]                                   show the newest emails in the outbox",
    run: (args, config) => showOutbox(args, config()),
  },
  "seed-demo": {
    usage: "seed-demo [--url http://host:port]                   fill a fresh instance with a demo zone (idempotent)",
    run: (args, config) => seedDemoCommand(args, config),
  },
  spec: { usage: SPEC_USAGE, run: (args) => specCommand(args) },
};

const USAGE = `usage: npm run cli -- <command> [options]\n\ncommands:\n${Object.values(COMMANDS)
  .map((command) => `  ${command.usage}`)
  .join("\n")}`;

async function run(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    console.error(USAGE);
    return 2;
  }
  return command.run(rest, () => withKeyFile(loadConfig()));
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
