import type { Config } from "../config.ts";
import { rpcCorsHeaders, rpcPreflight } from "../http/cors.ts";
import type { Credentials } from "../http/credentials.ts";
import { REQUEST_ID_HEADER } from "../http/request-log.ts";
import type { RequestInfo } from "../rpc/context.ts";
import { IDEMPOTENCY_HEADER } from "../rpc/idempotency.ts";
import type { MaybePromise } from "../rpc/maybe-async.ts";
import type { HttpAnswer, RpcEndpoint } from "./rpc-endpoint.ts";

/** One HTTP request to a JSON-RPC endpoint, as any server adapter (Hono or plain node:http) sees it. */
export interface RpcHttpRequest {
  method: string;
  header(name: string): string | undefined;
  /** Reads the body; null when it passed the limit. */
  readBody(limit: number): Promise<string | null>;
  credentials: Credentials;
  ip: string;
  /** The request's id (requestIdFrom: the client's X-Request-Id or a new one), answered in X-Request-Id. */
  requestId: string;
  headers(): Record<string, string>;
}

export interface RpcHttpResponse {
  status: number;
  body: string | null;
  headers: Record<string, string>;
}

const JSON_HEADERS = { "content-type": "application/json" };
const tooLarge: RpcHttpResponse = { status: 413, body: '{"error":"request body over 1 MiB"}', headers: JSON_HEADERS };

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
}

/** The request as a call sees it; the header map is made only when something reads it (webhook signatures). */
class HttpRequestInfo implements RequestInfo {
  readonly requestId: string;
  readonly ip: string;
  readonly userAgent: string | null;
  readonly idempotencyKey: string | null;
  idempotentReplay = false;
  private headerMap: Record<string, string> | null = null;

  constructor(
    private readonly req: RpcHttpRequest,
    readonly rawBody: string,
  ) {
    this.requestId = req.requestId;
    this.ip = req.ip;
    this.userAgent = req.header("user-agent") ?? null;
    this.idempotencyKey = req.header(IDEMPOTENCY_HEADER) ?? null;
  }

  get headers(): Record<string, string> {
    this.headerMap ??= this.req.headers();
    return this.headerMap;
  }
}

function answerOf(answer: HttpAnswer, replayed: boolean): RpcHttpResponse {
  const headers = answer.body === null ? {} : JSON_HEADERS;
  return { status: answer.status, body: answer.body, headers: replayed ? { ...headers, ...REPLAYED } : headers };
}

/** Stripe's header for an answer kept for an Idempotency-Key and given again. */
const REPLAYED = { "idempotent-replayed": "true" };

/**
 * HTTP rules of API.md before the body is read: a CORS preflight (OPTIONS) answered for ALLOWED_ORIGINS, 405 other
 * verbs, 415 wrong type, 413 a declared length over 1 MiB.
 */
export function refuseEarly(config: Config, req: RpcHttpRequest): RpcHttpResponse | null {
  if (req.method === "OPTIONS") {
    const preflight = rpcPreflight(
      config.allowedOrigins,
      req.header("origin"),
      req.header("access-control-request-method"),
    );
    return { ...preflight, body: null };
  }
  if (req.method !== "POST") return { status: 405, body: null, headers: { allow: "POST, OPTIONS" } };
  if (!isJson(req.header("content-type"))) {
    return { status: 415, body: '{"error":"content type must be application/json"}', headers: JSON_HEADERS };
  }
  if (Number(req.header("content-length") ?? "0") > config.bodyLimitBytes) return tooLarge;
  return null;
}

/**
 * The answer to a body read within the limit (null: it passed the limit, 413), handed to `reply`; the result is a
 * promise only when some call waited for something.
 */
export function answerBody<T>(
  endpoint: RpcEndpoint,
  req: RpcHttpRequest,
  body: string | null,
  reply: (response: RpcHttpResponse) => T,
): MaybePromise<T> {
  if (body === null) return reply(tooLarge);
  const info = new HttpRequestInfo(req, body);
  return endpoint.handle(info, req.credentials, (answer) => reply(answerOf(answer, info.idempotentReplay)));
}

/** HTTP rules of API.md around a JSON-RPC endpoint: 405 other verbs, 415 wrong type, 413 over 1 MiB. */
/** An answer's headers with the request id and, for an allowed browser origin, the CORS headers. */
export function responseHeaders(config: Config, req: RpcHttpRequest, answer: RpcHttpResponse): Record<string, string> {
  const cors = rpcCorsHeaders(config.allowedOrigins, req.header("origin"));
  return { ...answer.headers, ...cors, [REQUEST_ID_HEADER]: req.requestId };
}

export async function serveRpc(endpoint: RpcEndpoint, config: Config, req: RpcHttpRequest): Promise<RpcHttpResponse> {
  const refusal = refuseEarly(config, req);
  if (refusal) return refusal;
  return answerBody(endpoint, req, await req.readBody(config.bodyLimitBytes), (response) => response);
}
