import { serve } from "@hono/node-server";
import { createApp } from "./app/create-app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { DataDirInUseError } from "./db/database.ts";

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const server = serve({ fetch: app.hono.fetch, port: config.port, hostname: config.host }, (info) => {
    const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.pgliteDir}`;
    app.runtime.log.info({ port: info.port, database: where }, `freezone registry listening on http://localhost:${info.port}`);
  });
  const stop = () => {
    server.close();
    void app.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirInUseError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
