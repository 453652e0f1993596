import type { EntityManager } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { MethodPolicy, TargetOf } from "../../generated/policy.ts";
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
  /** The `Idempotency-Key` header of a JSON-RPC endpoint's request (src/rpc/idempotency.ts); absent elsewhere. */
  idempotencyKey?: string | null;
  /** Set when the answer is the one kept for that key (answered with `Idempotent-Replayed: true`). */
  idempotentReplay?: boolean;
}

/**
 * Counts money leaving a credit wallet or treasury account during the call against the calling agent key's limits
 * and approval threshold (src/mcp/spending.ts). The ledger calls it at each debit, in the call's transaction; it
 * throws to refuse (the call then rolls back).
 */
export interface SpendingMeter {
  /** `cents` (integer) of `currency` leave now. */
  spend(cents: number, currency: string): Promise<void>;
}

/** A write that must outlive a rollback of the call: it runs again, outside the transaction, after it. */
export type SurvivingWrite = (em: EntityManager) => Promise<unknown>;

/**
 * What every handler receives: the call's unit of work, the caller, configuration and the clock. A call that
 * writes runs in one transaction on `em` (the dispatcher opens it, commits it with the handler's result, and
 * rolls it back on any error); read-only methods run without one.
 */
export interface RpcContext {
  em: EntityManager;
  caller: Caller | null;
  config: Config;
  now(): Date;
  request: RequestInfo;
  method: MethodPolicy;
  log: Logger;
  /** The agent key's spending meter; null for sessions and script keys (docs/decisions.md, issue 27). */
  spending: SpendingMeter | null;
  /** What the call adds to the context of its audit rows (an agent key's call: the endpoint it came through). */
  auditContext: Readonly<Record<string, unknown>> | null;
  /**
   * The record `x-target` names, loaded and authorized by the dispatcher before the handler (src/rpc/target.ts);
   * absent for methods without one. Handlers of such methods are typed `Targeted<Ctx, Row>` (generated/policy.ts).
   */
  target?: TargetOf<unknown>;
  /**
   * Registers a write made inside the transaction that must survive its rollback (a rate-limit hit, the sandbox's
   * record of a refused email): after a rollback the dispatcher runs it again, outside any transaction.
   */
  keepOnRollback(write: SurvivingWrite): void;
  /**
   * A write other calls must see at once and that no rollback undoes (a rate-limit counter that gates concurrent
   * attempts): on PostgreSQL it commits on a connection of its own; on PGlite, whose one connection the call's
   * transaction holds (and so no other call runs meanwhile), it is made in the transaction and kept on rollback.
   */
  commitNow<T>(write: (em: EntityManager) => Promise<T>): Promise<T>;
}

export function isAdminSession(caller: Caller | null): boolean {
  return caller !== null && caller.via === "session" && caller.roles.includes("admin");
}
