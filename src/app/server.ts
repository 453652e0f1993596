import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { CONTEXT, DOMAINS } from "../../generated/policy.ts";
import { serveMcpNode } from "../mcp/node-http.ts";
import type { App } from "./create-app.ts";
import { clientAddress, readCredentials } from "./credentials.ts";
import { readBody } from "./read-body.ts";
import { RpcEndpoint } from "./rpc-endpoint.ts";
import { type RpcHttpRequest, serveRpc } from "./rpc-http.ts";

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The HTTP server: JSON-RPC endpoints take a lean path straight from node:http (no Request/Response objects,
 * the hot route of every client), everything else goes through the Hono app. Both paths share `serveRpc`.
 */
export function createHttpServer(app: App): Server {
  const { config } = app.runtime;
  const endpoints = new Map<string, RpcEndpoint>([["/rpc", new RpcEndpoint(app.runtime, "all")]]);
  for (const domain of DOMAINS) endpoints.set(`/${CONTEXT}/${domain}/rpc`, new RpcEndpoint(app.runtime, domain));
  const hono = getRequestListener(app.hono.fetch);
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?", 1)[0] ?? "/";
    if (path === "/mcp") {
      serveMcpNode(app.mcp, req, res);
      return;
    }
    const endpoint = endpoints.get(path);
    if (!endpoint) {
      void hono(req, res);
      return;
    }
    const lookup = (name: string) => header(req, name);
    const request: RpcHttpRequest = {
      method: req.method ?? "GET",
      header: lookup,
      readBody: (limit) => readBody(req, limit),
      credentials: readCredentials(lookup),
      ip: clientAddress(lookup, req.socket.remoteAddress, config.trustProxy),
      headers: () =>
        Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
        ),
    };
    serveRpc(endpoint, config, request).then(
      (answer) => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? undefined);
      },
      (err: unknown) => {
        app.runtime.log.error({ err }, "unhandled error on the RPC path");
        res.writeHead(500, { "content-type": "application/json" });
        res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}');
      },
    );
  });
}

/** Starts listening; resolves with the bound port (use port 0 in tests). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}
