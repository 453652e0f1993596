import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../http/read-body.ts";
import type { McpEndpoint } from "./endpoint.ts";
import type { McpHttpRequest } from "./http.ts";

/**
 * `/mcp` straight from node:http, like the JSON-RPC endpoints (src/app/server.ts): no fetch Request/Response
 * objects on the hot path. Same checks and answers as through Hono (`McpEndpoint.handle`).
 */
export function serveMcpNode(endpoint: McpEndpoint, req: IncomingMessage, res: ServerResponse): void {
  const header = (name: string): string | null => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
  const request: McpHttpRequest = {
    method: req.method ?? "GET",
    header,
    text: (limit) => readBody(req, limit),
    headers: () =>
      Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")])),
    onClose: (fn) => {
      const closed = () => {
        if (!res.writableEnded) fn();
      };
      res.once("close", closed);
      return () => res.off("close", closed);
    },
  };
  endpoint.handle(request).then(
    (answer) => {
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? undefined);
    },
    (err: unknown) => {
      endpoint.deps.runtime.log.error({ err }, "unhandled error on /mcp");
      res.writeHead(500, { "content-type": "application/json" });
      res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}');
    },
  );
}
