/**
 * Our server, started exactly as src/main.ts does it: `createApp(loadConfig())` served by @hono/node-server.
 * Configuration comes from the environment the bench sets (DATABASE_URL, DATABASE_SCHEMA, PORT=0, HOST, LOG_LEVEL);
 * pino writes to stdout, which the bench discards (the cost of formatting each line is still paid).
 */
import { serve } from "@hono/node-server";
import { createApp } from "../../src/app/create-app.ts";
import { loadConfig } from "../../src/config.ts";
import { failAsChild, serveAsChild } from "./child.ts";

try {
  const config = loadConfig();
  const app = await createApp(config);
  const server = serve({ fetch: app.hono.fetch, port: config.port, hostname: config.host }, (info) =>
    serveAsChild(info.port, () => app.close()),
  );
  server.on("error", failAsChild);
} catch (err) {
  failAsChild(err);
}
