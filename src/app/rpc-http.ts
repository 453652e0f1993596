import type { Config } from "../config.ts";
import { newRequestId } from "../rpc/runtime.ts";
import type { Credentials } from "./credentials.ts";
import type { RpcEndpoint } from "./rpc-endpoint.ts";

/** One HTTP request to a JSON-RPC endpoint, as any server adapter (Hono or plain node:http) sees it. */
export interface RpcHttpRequest {
  method: string;
  header(name: string): string | undefined;
  /** Reads the body; null when it passed the limit. */
  readBody(limit: number): Promise<string | null>;
  credentials: Credentials;
  ip: string;
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

/** HTTP rules of API.md around a JSON-RPC endpoint: 405 other verbs, 415 wrong type, 413 over 1 MiB. */
export async function serveRpc(endpoint: RpcEndpoint, config: Config, req: RpcHttpRequest): Promise<RpcHttpResponse> {
  if (req.method !== "POST") return { status: 405, body: null, headers: { allow: "POST" } };
  if (!isJson(req.header("content-type"))) {
    return { status: 415, body: '{"error":"content type must be application/json"}', headers: JSON_HEADERS };
  }
  if (Number(req.header("content-length") ?? "0") > config.bodyLimitBytes) return tooLarge;
  const body = await req.readBody(config.bodyLimitBytes);
  if (body === null) return tooLarge;
  const answer = await endpoint.handle(body, req.credentials, {
    requestId: req.header("x-request-id") ?? newRequestId(),
    ip: req.ip,
    userAgent: req.header("user-agent") ?? null,
    headers: req.headers(),
  });
  return { status: answer.status, body: answer.body, headers: answer.body === null ? {} : JSON_HEADERS };
}
