import pino from "pino";
import { createApp } from "./app/create-app.ts";
import { createLogger } from "./app/logging.ts";
import { startMetricsServer } from "./app/metrics-http.ts";
import { createHttpServer, listen } from "./app/server.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { DataDirInUseError } from "./db/database.ts";
import { withKeyFile } from "./db/key-file.ts";

async function main(): Promise<void> {
  const config = withKeyFile(loadConfig());
  // Buffered JSON lines on stdout: a synchronous write per call would cost more than a trivial call itself.
  const destination = pino.destination({ sync: false, minLength: 4096 });
  const log = createLogger(config, destination);
  const app = await createApp(config, { log });
  const server = createHttpServer(app);
  const port = await listen(server, config.port, config.host);
  const metricsServer =
    config.metricsPort === null
      ? null
      : await startMetricsServer(app.metrics, app.runtime.log, { port: config.metricsPort, host: config.metricsHost });
  const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.pgliteDir}`;
  const startupMs = Math.round(performance.now()); // since the process started
  app.runtime.log.info({ port, database: where, startupMs }, `freezone registry listening on http://localhost:${port}`);
  if (metricsServer) {
    app.runtime.log.info(
      { metricsPort: metricsServer.port, host: config.metricsHost },
      "metrics served on their own port",
    );
  }
  for (const warning of config.warnings) app.runtime.log.warn(warning);
  app.runtime.log.info(
    {
      firstAdministrator: "set ADMIN_EMAIL and ADMIN_PASSWORD, or stop the server and run: npm run cli -- create-admin",
      emails: "sandbox provider: each message is logged here (recipient, subject, links) and kept in email_outbox",
    },
    "getting started",
  );
  destination.flush();
  const stop = () => {
    server.close();
    void metricsServer?.close();
    void app.close().then(() => {
      destination.flushSync();
      process.exit(0);
    });
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
