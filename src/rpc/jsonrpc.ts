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
/** No method name is longer; a longer one is refused without being echoed (issue 13). */
export const MAX_METHOD_LENGTH = 256;

/**
 * JSON nesting depth, counted without building anything (API.md: 64 levels at most). Strings are skipped with
 * `indexOf` (a quote preceded by an odd number of backslashes is escaped): most of a body is strings.
 */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i);
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** The index of the quote closing the string opened at `open` (text.length when it is not closed). */
function stringEnd(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
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
  if (m["method"].length > MAX_METHOD_LENGTH) {
    return { error: RpcError.invalidRequest(`method name longer than ${MAX_METHOD_LENGTH} characters`), id: echoId };
  }
  return { request: m as unknown as JsonRpcRequest };
}

export function isNotification(request: JsonRpcRequest): boolean {
  return !("id" in request);
}

/**
 * A request object without an `id` member is a notification and is never answered (JSON-RPC 2.0 section 4.1),
 * also when its method is the empty string or too long. A message that is no request object at all (no
 * `jsonrpc: "2.0"`, or a method that is not a string) is answered with -32600 and id null, as the spec's examples do.
 */
export function isNotificationMessage(message: unknown): boolean {
  if (message === null || typeof message !== "object" || Array.isArray(message) || "id" in message) return false;
  const m = message as Record<string, unknown>;
  return m["jsonrpc"] === "2.0" && typeof m["method"] === "string";
}

/** The first string anywhere in `value` that holds a NUL character, as a JSON pointer; null when none does. */
export function nulPath(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path || "/" : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes("\u0000")) return `${path}/${key.replaceAll("\u0000", "")}`;
      const found = nulPath(item, `${path}/${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Whether any string in `value` (or any key) holds a NUL character: the check of every call, without paths. */
function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsNul(item)) return true;
    return false;
  }
  for (const key in value) {
    if (key.includes("\u0000") || holdsNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** PostgreSQL text cannot hold NUL: a string param (or a key) with one is refused before anything runs. */
export function refuseNul(value: unknown, what: string): void {
  const path = holdsNul(value) ? nulPath(value) : null;
  if (path !== null) {
    throw RpcError.invalidParams(`${what} ${path.slice(0, 256)} contains a NUL character`, [
      { path, message: "must not contain U+0000", params: {} },
    ]);
  }
}
