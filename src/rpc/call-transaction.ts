import type { EntityManager } from "@mikro-orm/postgresql";
import { openedEntityManager, takeSurvivingWrites, writeSlotsOf } from "./call-context.ts";
import type { RpcContext } from "./context.ts";
import { andThen, type MaybePromise } from "./maybe-async.ts";

/** Taken right after BEGIN: a failed call rolls back to it, keeps what must survive, and commits that alone. */
const CALL_START = "fz_call_start";

async function rollbackQuietly(ctx: RpcContext, em: EntityManager): Promise<void> {
  try {
    await em.rollback();
  } catch (err) {
    // A failed COMMIT has ended the transaction already; there is nothing left to roll back.
    ctx.log.warn({ requestId: ctx.request.requestId, err }, "rollback after a failed call did not run");
  }
}

/**
 * After a failed call: everything it wrote is undone (back to the savepoint), then the writes registered with
 * `keepOnRollback` are made again and committed, on the same connection without releasing it, so no other call
 * can see the state in between (a concurrent guess must see the failed one counted).
 */
async function keepSurvivors(ctx: RpcContext, em: EntityManager): Promise<void> {
  const survivors = takeSurvivingWrites(ctx);
  if (survivors.length === 0) return rollbackQuietly(ctx, em);
  try {
    await em.execute(`rollback to savepoint ${CALL_START}`, [], "run");
    em.clear();
    for (const write of survivors) await write(em);
    await em.commit();
  } catch (err) {
    ctx.log.error({ requestId: ctx.request.requestId, err }, "writes kept on rollback failed");
    await rollbackQuietly(ctx, em);
  }
}

/**
 * One call, one transaction. A method that writes runs `work` in a transaction on the call's entity manager:
 * raw SQL (`sqlRows`, `affected`), native inserts and the unit of work's flush all commit together when `work`
 * returns, and all roll back when it throws, except the writes kept with `ctx.keepOnRollback` (rate-limit hits,
 * state a refusal moves on purpose), which are committed alone. A call nested in another one's transaction (an
 * approved MCP call replayed inside the approval) runs in a savepoint of it. Read-only methods (`x-mcp.readOnly`)
 * open no transaction: their unit of work is flushed only when `work` opened one, and a `work` that answers a value
 * is answered without a promise (src/rpc/maybe-async.ts).
 */
export function inCallTransaction<T>(ctx: RpcContext, readOnly: boolean, work: () => MaybePromise<T>): MaybePromise<T> {
  if (!readOnly) return inWriteTransaction(ctx, work);
  return andThen(work(), (result) => {
    // Nothing but audit rows (native inserts) should be written here; a stray entity change still lands.
    const em = openedEntityManager(ctx);
    return em ? em.flush().then(() => result) : result;
  });
}

/** `inCallTransaction` of a method that writes (and of every job's unit of work): one transaction. */
export async function inWriteTransaction<T>(ctx: RpcContext, work: () => MaybePromise<T>): Promise<T> {
  const em = ctx.em;
  const outer = em.getTransactionContext();
  // A nested call runs on its outer call's connection and slot.
  const release = outer ? null : await writeSlotsOf(ctx)?.acquire();
  try {
    await em.begin(outer ? { ctx: outer } : {});
  } catch (err) {
    release?.();
    throw err;
  }
  const trx = em.getTransactionContext();
  try {
    await em.execute(`savepoint ${CALL_START}`, [], "run");
    const result = await work();
    await em.commit();
    return result;
  } catch (err) {
    await keepSurvivors(ctx, em);
    em.clear();
    throw await completedBy(trx, err);
  } finally {
    if (outer) em.setTransactionContext(outer);
    release?.();
  }
}

/**
 * The error that ended a transaction early. When a control statement (BEGIN, SAVEPOINT, COMMIT) fails, knex marks
 * the transaction complete, swallows that error into its own promise and answers every later statement with
 * "Transaction query already complete": the call then reports the first error (a timeout of a silent database),
 * which is what tells the client whether to retry.
 */
async function completedBy(trx: unknown, err: unknown): Promise<unknown> {
  const execution = (trx as { executionPromise?: Promise<unknown> } | undefined)?.executionPromise;
  if (!execution || !(err instanceof Error) || !err.message.includes("Transaction query already complete")) return err;
  return execution.then(
    () => err,
    (cause: unknown) => cause ?? err,
  );
}
