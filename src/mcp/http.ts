import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  type JSONRPCResponse,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../config.ts";
import type { RequestInfo } from "../rpc/context.ts";
import type { RpcError } from "../rpc/errors.ts";
import { MAX_DEPTH, nestingDepth } from "../rpc/jsonrpc.ts";

/** Checks of one HTTP request to `/mcp` before any message reaches the Server (mirrors the SDK's transport). */

/** One HTTP request to /mcp as any server adapter sees it (a fetch `Request` through Hono, or plain node:http). */
export interface McpHttpRequest {
  method: string;
  header(name: string): string | null;
  /** Reads the body; null when it passed the limit. */
  text(limit: number): Promise<string | null>;
  headers(): Record<string, string>;
  /** Calls `fn` if the client goes away before the answer; returns the unsubscribe. */
  onClose(fn: () => void): () => void;
}

export interface McpHttpAnswer {
  status: number;
  body: string | null;
  headers: Record<string, string>;
}

/** Adapts a fetch `Request` (Hono, tests through app.fetch). */
export function fromRequest(request: Request): McpHttpRequest {
  return {
    method: request.method,
    header: (name) => request.headers.get(name),
    text: async (limit) => {
      const text = await request.text();
      return Buffer.byteLength(text) > limit ? null : text;
    },
    headers: () => Object.fromEntries(request.headers.entries()),
    onClose: (fn) => {
      request.signal.addEventListener("abort", fn, { once: true });
      return () => request.signal.removeEventListener("abort", fn);
    },
  };
}

export function toResponse(answer: McpHttpAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export const MAX_BATCH = 100;
const JSON_HEADERS = { "content-type": "application/json" };

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): McpHttpAnswer {
  return {
    status,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { ...JSON_HEADERS, ...headers },
  };
}

export function errorBody(id: JSONRPCRequest["id"] | null, code: number, message: string, data?: unknown) {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

export const rpcErrorBody = (id: JSONRPCRequest["id"] | null, error: RpcError) =>
  errorBody(id, error.code, error.message, error.data);

function acceptsJson(accept: string | null): boolean {
  // Stricter clients send `application/json, text/event-stream`; we always answer JSON, so JSON (or any) suffices.
  return accept === null || accept === "" || /application\/json|application\/\*|\*\/\*/i.test(accept);
}

function isJsonContentType(value: string | null): boolean {
  return value !== null && /^application\/json\s*(;|$)/i.test(value);
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Browsers send Origin: a page from another site (or a DNS-rebound name) must not drive an agent's key. Allowed:
 * the configured origins (ALLOWED_ORIGINS), and a loopback page of the very host it calls (a local tool's UI).
 */
export function originAllowed(origin: string, host: string | null, allowed: string[]): boolean {
  if (allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return LOOPBACK.has(url.hostname) && url.host === host;
  } catch {
    return false;
  }
}

/** The HTTP-level refusals, in the SDK transport's order; null when the request may go on. */
export function checkHttp(request: McpHttpRequest, config: Config): McpHttpAnswer | null {
  if (request.method !== "POST") {
    return jsonResponse(405, errorBody(null, -32000, "Method not allowed."), { allow: "POST" });
  }
  const origin = request.header("origin");
  if (origin !== null && !originAllowed(origin, request.header("host"), config.allowedOrigins)) {
    return jsonResponse(403, errorBody(null, -32002, `Origin not allowed: ${origin}`));
  }
  if (!acceptsJson(request.header("accept"))) {
    return jsonResponse(406, errorBody(null, -32000, "Not Acceptable: Client must accept application/json"));
  }
  if (!isJsonContentType(request.header("content-type"))) {
    return jsonResponse(415, errorBody(null, -32000, "Unsupported Media Type: Content-Type must be application/json"));
  }
  const version = request.header("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    const supported = SUPPORTED_PROTOCOL_VERSIONS.join(", ");
    return jsonResponse(
      400,
      errorBody(
        null,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
      ),
    );
  }
  const declared = Number(request.header("content-length") ?? "0");
  if (declared > config.bodyLimitBytes) return tooLarge(config);
  return null;
}

function tooLarge(config: Config): McpHttpAnswer {
  return jsonResponse(413, errorBody(null, -32600, `Invalid request: body over ${config.bodyLimitBytes} bytes`));
}

export type ParsedBody = { messages: JSONRPCMessage[]; batch: boolean; text: string } | { refusal: McpHttpAnswer };

/** Reads the body within the limit, parses it and validates every message with the SDK's JSONRPCMessageSchema. */
export async function readMessages(request: McpHttpRequest, config: Config): Promise<ParsedBody> {
  const text = await request.text(config.bodyLimitBytes);
  if (text === null) return { refusal: tooLarge(config) };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { refusal: jsonResponse(400, errorBody(null, -32700, "Parse error: Invalid JSON")) };
  }
  if (nestingDepth(text) > MAX_DEPTH) {
    return {
      refusal: jsonResponse(400, errorBody(null, -32600, `Invalid request: JSON nesting over ${MAX_DEPTH} levels`)),
    };
  }
  const batch = Array.isArray(raw);
  const items = batch ? (raw as unknown[]) : [raw];
  if (items.length === 0 || items.length > MAX_BATCH) {
    return {
      refusal: jsonResponse(400, errorBody(null, -32600, `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`)),
    };
  }
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    // The SDK never answers a message it cannot classify, so an invalid one is refused here.
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) {
      const id = (item as { id?: unknown } | null)?.id;
      const echo = typeof id === "string" || typeof id === "number" ? id : null;
      return { refusal: jsonResponse(400, errorBody(echo, -32600, "Invalid Request: not a JSON-RPC 2.0 message")) };
    }
    messages.push(parsed.data);
  }
  return { messages, batch, text };
}

export const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => "method" in m && "id" in m;

export function requestInfo(request: McpHttpRequest, text: string, requestId: string): RequestInfo {
  return {
    requestId,
    ip: request.header("x-forwarded-for")?.split(",")[0]?.trim() ?? "127.0.0.1",
    userAgent: request.header("user-agent"),
    rawBody: text,
    headers: request.headers(),
  };
}

export type { JSONRPCResponse };
