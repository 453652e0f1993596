import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Logger } from "pino";
import { CONTEXT, DOMAINS } from "../../generated/policy.ts";
import type { Config } from "../config.ts";
import { type Credentials, clientAddress, type HeaderLookup, readCredentials } from "../http/credentials.ts";
import { onBody, readBody } from "../http/read-body.ts";
import { REQUEST_ID_HEADER, requestIdFrom } from "../http/request-log.ts";
import { serveMcpNode } from "../mcp/node-http.ts";
import { isPromiseLike } from "../rpc/maybe-async.ts";
import type { App } from "./create-app.ts";
import type { Drain } from "./drain.ts";
import { RpcEndpoint } from "./rpc-endpoint.ts";

export { listen } from "./listen.ts";

import { answerBody, type RpcHttpRequest, type RpcHttpResponse, refuseEarly, responseHeaders } from "./rpc-http.ts";

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** A node:http request as `serveRpc` sees it (a class: one is made per request, the hot path of every client). */
class NodeRpcRequest implements RpcHttpRequest {
  readonly method: string;
  readonly credentials: Credentials;
  readonly ip: string;
  readonly requestId: string;

  constructor(
    private readonly req: IncomingMessage,
    trustProxy: boolean,
  ) {
    const lookup: HeaderLookup = (name) => header(req, name);
    this.method = req.method ?? "GET";
    this.requestId = requestIdFrom(header(req, REQUEST_ID_HEADER));
    this.credentials = readCredentials(lookup);
    this.ip = clientAddress(lookup, req.socket.remoteAddress, trustProxy);
  }

  header(name: string): string | undefined {
    return header(this.req, name);
  }

  readBody(limit: number): Promise<string | null> {
    return readBody(this.req, limit);
  }

  headers(): Record<string, string> {
    return Object.fromEntries(
      Object.entries(this.req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
    );
  }
}

function send(res: ServerResponse, answer: RpcHttpResponse, config: Config, request: RpcHttpRequest): void {
  res.writeHead(answer.status, responseHeaders(config, request, answer));
  res.end(answer.body ?? undefined);
}

function sendInternalError(res: ServerResponse, log: Logger, err: unknown): void {
  log.error({ err }, "unhandled error on the RPC path");
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.writeHead(500, { "content-type": "application/json" });
  res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}');
}

/** `serveRpc` on node:http without a promise of its own: the answer is written as soon as it is known. */
function serveLean(endpoint: RpcEndpoint, config: Config, log: Logger, req: IncomingMessage, res: ServerResponse) {
  const request = new NodeRpcRequest(req, config.trustProxy);
  const refusal = refuseEarly(config, request);
  if (refusal) {
    send(res, refusal, config, request);
    return;
  }
  const answer = (body: string | null) => {
    let sent: unknown;
    try {
      sent = answerBody(endpoint, request, body, (response) => send(res, response, config, request));
    } catch (err) {
      sendInternalError(res, log, err);
      return;
    }
    if (isPromiseLike(sent)) sent.then(undefined, (err: unknown) => sendInternalError(res, log, err));
  };
  onBody(req, config.bodyLimitBytes, answer, (err) => sendInternalError(res, log, err));
}

/**
 * The HTTP server: JSON-RPC endpoints take a lean path straight from node:http (no Request/Response objects,
 * the hot route of every client), everything else goes through the Hono app. Both paths share `serveRpc`'s rules.
 * With a `drain`, requests are counted in and, once shutdown began, refused (src/app/drain.ts).
 */
export function createHttpServer(app: App, drain?: Drain): Server {
  const { config, log } = app.runtime;
  const endpoints = new Map<string, RpcEndpoint>([["/rpc", new RpcEndpoint(app.runtime, "all")]]);
  for (const domain of DOMAINS) endpoints.set(`/${CONTEXT}/${domain}/rpc`, new RpcEndpoint(app.runtime, domain));
  const hono = getRequestListener(app.hono.fetch);
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    if (drain && !drain.admit(req, res)) return;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (path === "/mcp") {
      serveMcpNode(app.mcp, req, res);
      return;
    }
    const endpoint = endpoints.get(path);
    if (endpoint) serveLean(endpoint, config, log, req, res);
    else void hono(req, res);
  });
}
