/**
 * Reference: the same echo as raw-http.ts, but as a plain Hono route on @hono/node-server (no dispatcher, no ORM,
 * no logging). Separates what Hono + the adapter cost from what our JSON-RPC pipeline costs.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { failAsChild, serveAsChild } from "./child.ts";

const { answer } = JSON.parse(process.argv[2] ?? "{}") as { answer: Record<string, unknown> };
const HEADERS = { "content-type": "application/json" };

const app = new Hono();
app.post("/rpc", async (c) => {
  const message = JSON.parse(await c.req.text()) as { id?: unknown };
  return c.body(JSON.stringify({ jsonrpc: "2.0", id: message.id ?? null, ...answer }), 200, HEADERS);
});

try {
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => serveAsChild(info.port));
  server.on("error", failAsChild);
} catch (err) {
  failAsChild(err);
}
