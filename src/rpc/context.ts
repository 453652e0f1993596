import type { EntityManager } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { MethodPolicy } from "../../generated/policy.ts";
import type { Config } from "../config.ts";

/** The verified caller of a request: from a session token or an API key, never from params. */
export interface Caller {
  userId: string;
  email: string;
  roles: string[];
  via: "session" | "api_key";
  sessionId: string | null;
  apiKeyId: string | null;
  /** Set for reseller keys: ownership compares the pair (user_id, partner_id). */
  partnerId: string | null;
  mcpScope: string | null;
}

export interface RequestInfo {
  requestId: string;
  ip: string;
  userAgent: string | null;
  /** The raw body, for webhook signatures. */
  rawBody: string;
  headers: Record<string, string>;
}

/** What every handler receives: one unit of work, the caller, configuration and the clock. */
export interface RpcContext {
  em: EntityManager;
  /** Flushes the unit of work if the call opened one (contexts built elsewhere may omit it: em.flush() is used). */
  flush?: () => Promise<void>;
  caller: Caller | null;
  config: Config;
  now(): Date;
  request: RequestInfo;
  method: MethodPolicy;
  log: Logger;
}

export function isAdminSession(caller: Caller | null): boolean {
  return caller !== null && caller.via === "session" && caller.roles.includes("admin");
}
