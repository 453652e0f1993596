import type { EntityManager } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { MethodPolicy } from "../../generated/policy.ts";
import type { Config } from "../config.ts";
import type { Slots } from "../db/slots.ts";
import type { Caller, RequestInfo, RpcContext, SpendingMeter, SurvivingWrite } from "./context.ts";

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
  /** An agent key's spending meter (src/mcp/spending.ts); absent: null. */
  spending?: SpendingMeter;
  /** Added to the context of the call's audit rows (an agent key's call: its endpoint); absent: nothing. */
  auditContext?: Readonly<Record<string, unknown>>;
}

/** One call's context (a class, not a literal with closures: one is made per call, batches make thousands). */
class CallContext implements RpcContext {
  readonly caller: Caller | null;
  readonly config: Config;
  readonly request: RequestInfo;
  readonly method: MethodPolicy;
  readonly log: Logger;
  readonly now: () => Date;
  readonly spending: SpendingMeter | null;
  readonly auditContext: Readonly<Record<string, unknown>> | null;
  /** The entity manager once something used it. */
  opened: EntityManager | null = null;
  /** Writes to make again after a rollback. */
  readonly kept: SurvivingWrite[] = [];

  constructor(private readonly input: CallContextInput) {
    this.caller = input.caller;
    this.config = input.config;
    this.request = input.request;
    this.method = input.method;
    this.log = input.log;
    this.now = input.config.clock;
    this.spending = input.spending ?? null;
    this.auditContext = input.auditContext ?? null;
  }

  get em(): EntityManager {
    this.opened ??= this.input.em();
    return this.opened;
  }

  get writeSlots(): Slots | null {
    return this.input.writeSlots;
  }

  keepOnRollback(write: SurvivingWrite): void {
    // Only writes inside an open transaction can be lost to a rollback; the others are committed already.
    if (this.opened?.isInTransaction()) this.kept.push(write);
  }

  commitNow<T>(write: (em: EntityManager) => Promise<T>): Promise<T> {
    const own = this.input.ownConnection;
    if (this.opened?.isInTransaction() && own) return write(own());
    return writeSurviving(this, write);
  }
}

/** One call's context, for /rpc, the domain endpoints and MCP alike. */
export function createCallContext(input: CallContextInput): RpcContext {
  return new CallContext(input);
}

/** The surviving writes registered so far, handed over once (the list is emptied). */
export function takeSurvivingWrites(ctx: RpcContext): SurvivingWrite[] {
  return ctx instanceof CallContext ? ctx.kept.splice(0, ctx.kept.length) : [];
}

/** The transaction slots of the call's database (null: no bound). */
export function writeSlotsOf(ctx: RpcContext): Slots | null {
  return ctx instanceof CallContext ? ctx.writeSlots : null;
}

/** The call's entity manager if anything used it, else null (nothing to flush). */
export function openedEntityManager(ctx: RpcContext): EntityManager | null {
  return ctx instanceof CallContext ? ctx.opened : ctx.em;
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
