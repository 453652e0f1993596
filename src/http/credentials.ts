import type { EntityManager } from "@mikro-orm/postgresql";
import { authenticateApiKey, authenticateCachedApiKey } from "../auth/api-keys.ts";
import { authenticateSession } from "../auth/sessions.ts";
import type { Caller } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

export interface Credentials {
  bearer: string | null;
  apiKey: string | null;
  /** Both `Authorization` and `X-API-Key` were sent: one request carries one credential (API.md), so it is refused. */
  both: boolean;
}

export const BOTH_CREDENTIALS = "send one credential: X-API-Key or Authorization, not both";

/** Header lookup of any server adapter (fetch Headers, node:http, the MCP transport). */
export type HeaderLookup = (name: string) => string | null | undefined;

/** `Authorization: Bearer <token>` and `X-API-Key`, as sent; which one authenticates is resolveCaller's call. */
export function readCredentials(header: HeaderLookup): Credentials {
  const auth = header("authorization");
  const bearer = auth && /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, "").trim() : null;
  const apiKey = header("x-api-key")?.trim() || null;
  return { bearer: bearer || null, apiKey, both: Boolean(auth?.trim()) && apiKey !== null };
}

/** The socket's address; X-Forwarded-For only behind a proxy we were told to trust (else it is spoofable). */
export function clientAddress(header: HeaderLookup, socketAddress: string | undefined, trustProxy: boolean): string {
  const forwarded = trustProxy ? header("x-forwarded-for")?.split(",")[0]?.trim() : undefined;
  return forwarded || socketAddress || "127.0.0.1";
}

/** The caller, null when no credentials were sent, or the refusal when they do not hold. */
export async function resolveCaller(em: EntityManager, creds: Credentials, now: Date): Promise<Caller | null> {
  if (creds.both) throw RpcError.unauthenticated("InvalidCredentials", BOTH_CREDENTIALS);
  if (creds.apiKey) return authenticateApiKey(em, creds.apiKey, now);
  if (creds.bearer) {
    return creds.bearer.startsWith("fz_")
      ? authenticateApiKey(em, creds.bearer, now)
      : authenticateSession(em, creds.bearer, now);
  }
  return null;
}

/**
 * `resolveCaller` without waiting, when nothing has to be read: no credentials (null), or an API key whose row this
 * instance has cached (the caller, or the refusal thrown). Undefined: call `resolveCaller`.
 */
export function resolveCallerNow(em: EntityManager, creds: Credentials, now: Date): Caller | null | undefined {
  if (creds.both) throw RpcError.unauthenticated("InvalidCredentials", BOTH_CREDENTIALS);
  const key = creds.apiKey ?? (creds.bearer?.startsWith("fz_") ? creds.bearer : null);
  if (key) return authenticateCachedApiKey(em, key, now);
  return creds.bearer ? undefined : null;
}

export type CallerOutcome = { caller: Caller | null } | { error: RpcError };
