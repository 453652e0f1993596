import type { Server } from "node:http";
import { type App, createApp } from "./app/create-app.ts";
import { Drain, shutdown } from "./app/drain.ts";
import { createLogger, logDestination } from "./app/logging.ts";
import { startMetricsServer } from "./app/metrics-http.ts";
import { createHttpServer, listen } from "./app/server.ts";
import { explainStartFailure, StartError } from "./app/start-failure.ts";
import { type Config, loadConfig } from "./config.ts";
import { discardUnusedKeyFile, withKeyFile } from "./db/key-file.ts";

async function main(): Promise<void> {
  const config = withKeyFile(loadConfig());
  try {
    await serve(config);
  } catch (err) {
    discardUnusedKeyFile(config);
    throw err;
  }
}

async function serve(config: Config): Promise<void> {
  // Asynchronous writes on stdout: a synchronous write per call would cost more than a trivial call itself.
  const destination = logDestination(config.logFormat, process.stdout.isTTY === true);
  const log = createLogger(config, destination.stream);
  const app = await createApp(config, { log });
  const drain = new Drain();
  const server = createHttpServer(app, drain);
  const port = await listenOrExplain(server, config.port, config.host, app);
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
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      app.runtime.log.warn(
        { signal, inFlight: drain.inFlight },
        "second signal: exiting now without waiting for calls in flight",
      );
      destination.flushSync();
      process.exit(1);
    }
    stopping = true;
    const close = async () => {
      await metricsServer?.close();
      await app.close();
    };
    void shutdown({ server, drain, close, log: app.runtime.log, graceMs: config.shutdownGraceMs }, signal).then(
      (code) => {
        destination.flushSync();
        process.exit(code);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

/** Listens, or closes the app and explains a port that cannot be had (in use, or not allowed) in one line. */
async function listenOrExplain(server: Server, port: number, host: string, app: App): Promise<number> {
  try {
    return await listen(server, port, host);
  } catch (err) {
    await app.close().catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new StartError(`port ${port} on ${host} is in use: stop what holds it or set PORT`);
    if (code === "EACCES")
      throw new StartError(`port ${port} on ${host} is not allowed for this user: set PORT above 1023`);
    throw err;
  }
}

main().catch((err: unknown) => {
  const explained = explainStartFailure(err);
  console.error(explained ? `freezone registry did not start: ${explained.message}` : err);
  process.exit(explained?.exitCode ?? 1);
});
