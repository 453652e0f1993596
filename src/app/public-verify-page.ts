import type { Context, Hono } from "hono";
import type { PublicVerifyKind } from "../domain/public-verify-url.ts";
import type { Credentials } from "../http/credentials.ts";
import type { RequestInfo } from "../rpc/context.ts";
import type { JsonRpcResponse } from "../rpc/jsonrpc.ts";
import { newRequestId, type Runtime } from "../rpc/runtime.ts";
import { signedByServer } from "../services/verification-service/public-url.ts";
import { honoClientAddress } from "./client-address.ts";
import { messagePage, PUBLIC_VERIFY_HEADERS, verdictPage } from "./public-verify-html.ts";
import { RpcEndpoint } from "./rpc-endpoint.ts";

/**
 * GET /verify/<individual|company>/<external_id>?sig=: the URL verificationservice.public_verify_url hands out.
 * The signature is checked first (constant time, before anything is read); a missing, malformed or foreign one
 * answers the app's plain 404, the same bytes as a path that does not exist, so a probe learns nothing. A signed
 * URL then runs the public lookup (verify_individual / verify_company) through the RPC endpoint as an anonymous
 * caller at tier 1, whatever credentials the request carries: the answer is exactly what that call answers
 * anyone (anonymity masking, the per-address lookup limit, metrics and the method-only log line included), as
 * HTML, or as the result's JSON when the client asks for application/json.
 */

const NO_CREDENTIALS: Credentials = { bearer: null, apiKey: null, both: false };

const LOOKUP: Record<PublicVerifyKind, { method: string; idParam: string }> = {
  individual: { method: "verificationservice.verify_individual", idParam: "resident_id" },
  company: { method: "verificationservice.verify_company", idParam: "company_id" },
};

/** JSON only when asked for it and HTML is not (a browser's Accept names text/html). */
function wantsJson(accept: string | undefined): boolean {
  const types = (accept ?? "").toLowerCase();
  return types.includes("application/json") && !types.includes("text/html");
}

function lookupRequest(c: Context, runtime: Runtime, kind: PublicVerifyKind, externalId: string): RequestInfo {
  const { method, idParam } = LOOKUP[kind];
  return {
    requestId: c.req.header("x-request-id") ?? newRequestId(),
    ip: honoClientAddress(c, runtime.config.trustProxy),
    userAgent: c.req.header("user-agent") ?? null,
    rawBody: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { [idParam]: externalId, requester_tier: 1 } }),
    headers: {},
  };
}

async function lookup(endpoint: RpcEndpoint, request: RequestInfo): Promise<JsonRpcResponse> {
  const answer = await endpoint.handle(request, NO_CREDENTIALS, (reply) => reply);
  return JSON.parse(answer.body ?? "null") as JsonRpcResponse;
}

function answer(c: Context, json: boolean, status: number, html: string, body: unknown, extra = {}): Response {
  const type = json ? "application/json" : "text/html; charset=utf-8";
  return c.body(json ? JSON.stringify(body) : html, status as 200, {
    ...PUBLIC_VERIFY_HEADERS,
    ...extra,
    "content-type": type,
  });
}

export function mountPublicVerify(app: Hono, runtime: Runtime): void {
  const endpoint = new RpcEndpoint(runtime, "all");
  app.get("/verify/:kind/:externalId", async (c) => {
    const kind = c.req.param("kind");
    const externalId = c.req.param("externalId");
    const sig = c.req.query("sig") ?? "";
    if (!signedByServer(runtime.config.encryptionKey, kind, externalId, sig)) return c.notFound();
    const verifyKind = kind as PublicVerifyKind;
    const json = wantsJson(c.req.header("accept"));
    const reply = await lookup(endpoint, lookupRequest(c, runtime, verifyKind, externalId));
    if (reply.result !== undefined) {
      const result = reply.result as Record<string, unknown>;
      return answer(c, json, 200, verdictPage(verifyKind, result), result);
    }
    const error = reply.error;
    // Signed, but the entity is gone: as unknown as a bad signature.
    if (error?.code === -32003) return c.notFound();
    const data = error?.data as { variant?: string; retry_after_s?: number } | undefined;
    if (data?.variant === "RateLimited") {
      const retry = String(data.retry_after_s ?? 60);
      const page = messagePage(
        "Too many lookups",
        `Too many lookups from this address. Try again in ${retry} seconds.`,
      );
      return answer(c, json, 429, page, { error }, { "retry-after": retry });
    }
    const page = messagePage("Verification unavailable", "The verification could not be answered. Try again later.");
    return answer(c, json, 500, page, { error: { code: -32603, message: "Internal error" } });
  });
}
