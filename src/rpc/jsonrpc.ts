import { RpcError } from "./errors.ts";

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
  id?: JsonRpcId;
}

export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result?: unknown;
  error?: ReturnType<RpcError["toJSON"]>;
}

export const MAX_DEPTH = 64;

/** JSON nesting depth, counted without building anything (API.md: 64 levels at most). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

export function errorResponse(id: JsonRpcId, error: RpcError): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: error.toJSON() };
}

/** Checks the envelope of one request; returns the error to answer with when it is not a valid request. */
export function validateEnvelope(message: unknown): { request: JsonRpcRequest } | { error: RpcError; id: JsonRpcId } {
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    return { error: RpcError.invalidRequest("a request must be an object"), id: null };
  }
  const m = message as Record<string, unknown>;
  const id = m["id"];
  const validId =
    id === undefined || id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  const echoId: JsonRpcId = validId ? ((id ?? null) as JsonRpcId) : null;
  if (!validId) return { error: RpcError.invalidRequest("id must be a string, a number or null"), id: null };
  if (m["jsonrpc"] !== "2.0") return { error: RpcError.invalidRequest('jsonrpc must be "2.0"'), id: echoId };
  if (typeof m["method"] !== "string" || m["method"].length === 0) {
    return { error: RpcError.invalidRequest("method must be a non-empty string"), id: echoId };
  }
  return { request: m as unknown as JsonRpcRequest };
}

export function isNotification(request: JsonRpcRequest): boolean {
  return !("id" in request);
}
