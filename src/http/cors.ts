/**
 * CORS for browser tools (issue 32 item 9; docs/decisions.md "Served documents and CORS"). The public documents
 * (OpenRPC) are readable from any origin and never with credentials. The JSON-RPC endpoints answer only the origins
 * of ALLOWED_ORIGINS (none by default): their preflight, and their answers carry the origin back. Credentials travel
 * in headers (Authorization, X-API-Key), never cookies, so `Access-Control-Allow-Credentials` is never sent.
 */

const NONE: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Request headers a browser client of /rpc may send. */
export const RPC_REQUEST_HEADERS = "content-type, authorization, x-api-key, x-request-id, idempotency-key";

/** Headers of a public document's answer: any origin, nothing credentialed. */
export const PUBLIC_CORS: Record<string, string> = Object.freeze({
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "etag",
}) as Record<string, string>;

/** The CORS headers of an /rpc answer to `origin`: the origin echoed when it is allowed, else none. */
export function rpcCorsHeaders(allowed: readonly string[], origin: string | undefined): Record<string, string> {
  if (allowed.length === 0 || origin === undefined || !allowed.includes(origin)) return NONE;
  return { "access-control-allow-origin": origin, vary: "Origin", "access-control-expose-headers": "x-request-id" };
}

/**
 * The answer to `OPTIONS` on a JSON-RPC endpoint: 204 with what an allowed origin may send (POST, the headers
 * above, cached 10 minutes); 403 with no CORS headers for any other origin or method, so the browser refuses.
 */
export function rpcPreflight(
  allowed: readonly string[],
  origin: string | undefined,
  requestedMethod: string | undefined,
): { status: number; headers: Record<string, string> } {
  const cors = rpcCorsHeaders(allowed, origin);
  const method = requestedMethod?.toUpperCase();
  if (cors === NONE || (method !== undefined && method !== "POST")) {
    return { status: 403, headers: { vary: "Origin" } };
  }
  return {
    status: 204,
    headers: {
      ...cors,
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": RPC_REQUEST_HEADERS,
      "access-control-max-age": "600",
    },
  };
}
