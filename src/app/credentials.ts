import type { EntityManager } from "@mikro-orm/postgresql";
import { authenticateApiKey } from "../auth/api-keys.ts";
import { authenticateSession } from "../auth/sessions.ts";
import type { Caller } from "../rpc/context.ts";
import type { RpcError } from "../rpc/errors.ts";

export interface Credentials {
  bearer: string | null;
  apiKey: string | null;
}

export function readCredentials(headers: Headers): Credentials {
  const auth = headers.get("authorization");
  const bearer = auth && /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, "").trim() : null;
  return { bearer: bearer || null, apiKey: headers.get("x-api-key")?.trim() || null };
}

/** The caller, null when no credentials were sent, or the refusal when they do not hold. */
export async function resolveCaller(em: EntityManager, creds: Credentials, now: Date): Promise<Caller | null> {
  if (creds.apiKey) return authenticateApiKey(em, creds.apiKey, now);
  if (creds.bearer) {
    return creds.bearer.startsWith("fz_")
      ? authenticateApiKey(em, creds.bearer, now)
      : authenticateSession(em, creds.bearer, now);
  }
  return null;
}

export type CallerOutcome = { caller: Caller | null } | { error: RpcError };
