import type { MikroORM } from "@mikro-orm/postgresql";
import { writeSlots } from "../db/orm.ts";

/**
 * `/health` and `/ready` (issue 31 item 3), each answered within CHECK_DEADLINE_MS whatever the database does:
 * - `/health` (liveness and the database's reachability): `select 1` on the pool.
 * - `/ready` (may this instance take writes?): a write slot within the deadline, then a transaction that is given a
 *   transaction id (`pg_current_xact_id()`, refused by a read-only server or a standby) and rolled back, so nothing
 *   is written. A load balancer takes the instance out on 503 while its writes could not run: the database silent
 *   or down, every write slot held (a stuck lock), or the server read-only.
 */
export const CHECK_DEADLINE_MS = 2_000;

export interface CheckAnswer {
  status: 200 | 503;
  body: Record<string, unknown>;
}

type Outcome<T> = { value: T } | { timeout: true } | { error: unknown };

/** `work`'s outcome, or a timeout once `ms` passed (the work is left to end on its own). */
async function within<T>(ms: number, work: () => Promise<T>): Promise<Outcome<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Outcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ timeout: true }), ms);
  });
  try {
    return await Promise.race([
      work().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthCheck(orm: MikroORM, deadlineMs = CHECK_DEADLINE_MS): Promise<CheckAnswer> {
  const outcome = await within(deadlineMs, () => orm.em.getConnection().execute("select 1"));
  if ("value" in outcome) return { status: 200, body: { status: "ok", database: "up" } };
  return { status: 503, body: { status: "degraded", database: "timeout" in outcome ? "not_answering" : "down" } };
}

export async function readyCheck(orm: MikroORM, deadlineMs = CHECK_DEADLINE_MS): Promise<CheckAnswer> {
  const started = performance.now();
  const slots = writeSlots(orm);
  const release = slots ? await slots.tryAcquire(deadlineMs) : () => undefined;
  if (!release) return notReady("writes_waiting", { queued: slots?.queued ?? 0 });
  try {
    const left = Math.max(1, deadlineMs - (performance.now() - started));
    const outcome = await within(left, () =>
      orm.em.fork().transactional(async (em) => {
        await em.getConnection().execute("select pg_current_xact_id()", [], "all", em.getTransactionContext());
        throw ROLLBACK;
      }),
    );
    if ("error" in outcome && outcome.error === ROLLBACK) return { status: 200, body: { status: "ready" } };
    if ("timeout" in outcome) return notReady("not_answering");
    return notReady(/read-only|recovery/i.test(String((outcome as { error?: unknown }).error)) ? "read_only" : "down");
  } finally {
    release();
  }
}

/** Thrown inside the check's transaction so that it rolls back (it wrote nothing, but took a transaction id). */
const ROLLBACK = new Error("readiness check: roll back");

function notReady(database: string, extra: Record<string, unknown> = {}): CheckAnswer {
  return { status: 503, body: { status: "not_ready", database, ...extra } };
}
