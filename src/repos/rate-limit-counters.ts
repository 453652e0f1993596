import type { EntityManager } from "@mikro-orm/postgresql";
import { RateLimitCounterEntity, type RateLimitCounterRow } from "../../generated/entities.ts";
import { affected, dateOf, type FromSql, sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { type WindowCount, windowCutoff } from "../domain/rate-limit.ts";

/** The RateLimitCounter table: one fixed-window counter per bucket, shared by every server instance. */

/**
 * Counts one hit on `bucket` in the database with a single atomic upsert, so the count holds across server
 * instances and under concurrent requests. Runs on the call's transaction; callers keep the hit when that
 * transaction rolls back (`ctx.keepOnRollback`), so a hit counts even when the call then fails.
 */
export async function hitCounter(em: EntityManager, bucket: string, windowS: number, now: Date): Promise<WindowCount> {
  const cutoff = windowCutoff(now, windowS);
  const rows = await sqlRows<FromSql<Pick<RateLimitCounterRow, "count" | "window_start">>>(
    em,
    `insert into "rate_limit_counter" (sid, bucket, window_start, count, created_at, updated_at)
     values (?, ?, ?, 1, ?, ?)
     on conflict (bucket) do update set
       count = case when "rate_limit_counter".window_start <= ? then 1 else "rate_limit_counter".count + 1 end,
       window_start = case when "rate_limit_counter".window_start <= ? then excluded.window_start
                           else "rate_limit_counter".window_start end,
       updated_at = excluded.updated_at
     returning count, window_start`,
    [uuidv7(now), bucket, now, now, now, cutoff, cutoff],
  );
  const row = rows[0];
  if (!row) throw new Error(`rate limit upsert returned nothing for ${bucket}`);
  return { count: Number(row.count), windowStart: dateOf(row.window_start) };
}

/** Takes back one hit (a reserved attempt that succeeded), never below zero. */
export async function releaseHit(em: EntityManager, bucket: string, now: Date): Promise<void> {
  await affected(
    em,
    `update "rate_limit_counter" set count = greatest(count - 1, 0), updated_at = ? where bucket = ?`,
    [now, bucket],
  );
}

/** Forgets a bucket (a password reset lifts the per-account login lockout). */
export async function clearBucket(em: EntityManager, bucket: string): Promise<void> {
  await em.nativeDelete(RateLimitCounterEntity, { bucket });
}
