import type { EntityManager } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { MethodPolicy } from "../../generated/policy.ts";
import type { Config } from "../config.ts";
import type { Slots } from "../db/slots.ts";
import type { Caller, RequestInfo, RpcContext, SurvivingWrite } from "./context.ts";

export interface CallContextInput {
  /** The call's entity manager, made on first use (calls that never touch the database pay nothing). */
  em: () => EntityManager;
  caller: Caller | null;
  config: Config;
  request: RequestInfo;
  method: MethodPolicy;
  log: Logger;
  /** An entity manager on another connection, for `commitNow`; null where the database has one (PGlite). */
  ownConnection: (() => EntityManager) | null;
  /** Bounds the transactions open at once (PostgreSQL), so `ownConnection` always finds a free connection. */
  writeSlots: Slots | null;
}

const survivors = new WeakMap<RpcContext, SurvivingWrite[]>();
const opened = new WeakMap<RpcContext, () => EntityManager | null>();
const slotsOf = new WeakMap<RpcContext, Slots | null>();

/** One call's context, for /rpc, the domain endpoints and MCP alike. */
export function createCallContext(input: CallContextInput): RpcContext {
  let em: EntityManager | null = null;
  const kept: SurvivingWrite[] = [];
  const ctx: RpcContext = {
    get em() {
      em ??= input.em();
      return em;
    },
    caller: input.caller,
    config: input.config,
    now: input.config.clock,
    request: input.request,
    method: input.method,
    log: input.log,
    keepOnRollback(write) {
      // Only writes inside an open transaction can be lost to a rollback; the others are committed already.
      if (em?.isInTransaction()) kept.push(write);
    },
    commitNow(write) {
      if (em?.isInTransaction() && input.ownConnection) return write(input.ownConnection());
      return writeSurviving(ctx, write);
    },
  };
  survivors.set(ctx, kept);
  opened.set(ctx, () => em);
  slotsOf.set(ctx, input.writeSlots);
  return ctx;
}

/** The surviving writes registered so far, handed over once (the list is emptied). */
export function takeSurvivingWrites(ctx: RpcContext): SurvivingWrite[] {
  const kept = survivors.get(ctx);
  return kept ? kept.splice(0, kept.length) : [];
}

/** The transaction slots of the call's database (null: no bound). */
export function writeSlotsOf(ctx: RpcContext): Slots | null {
  return slotsOf.get(ctx) ?? null;
}

/** The call's entity manager if anything used it, else null (nothing to flush). */
export function openedEntityManager(ctx: RpcContext): EntityManager | null {
  const get = opened.get(ctx);
  return get ? get() : ctx.em;
}

/**
 * A write the call keeps even when it then fails (a rate-limit hit, a refusal that moves state on purpose such as
 * revoking a token family on reuse): made now, and made again after a rollback.
 */
export async function writeSurviving<T>(
  ctx: Pick<RpcContext, "em" | "keepOnRollback">,
  write: (em: EntityManager) => Promise<T>,
): Promise<T> {
  const result = await write(ctx.em);
  ctx.keepOnRollback(write);
  return result;
}
