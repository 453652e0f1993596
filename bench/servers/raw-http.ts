/**
 * Baseline 1: plain `node:http`, no framework. Parses the JSON-RPC request and answers with the same payload our
 * server gave for the trivial method (passed in argv as `{ "answer": {...} }`, without its id), serialized per
 * request: the floor any JSON-RPC server on Node pays for HTTP + JSON.parse + JSON.stringify.
 */
import { createServer } from "node:http";
import { failAsChild, readBody, serveAsChild } from "./child.ts";

const { answer } = JSON.parse(process.argv[2] ?? "{}") as { answer: Record<string, unknown> };
const HEADERS = { "content-type": "application/json" };

const server = createServer((req, res) => {
  readBody(req).then(
    (body) => {
      const message = JSON.parse(body) as { id?: unknown };
      res.writeHead(200, HEADERS);
      res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id ?? null, ...answer }));
    },
    () => res.destroy(),
  );
});
server.on("error", failAsChild);
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  serveAsChild(typeof address === "object" && address ? address.port : 0);
});
