import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "../domain/ids.ts";
import { decide, type LimitDecision, type WindowCount, windowCutoff } from "../domain/rate-limit.ts";

/**
 * Counts one hit on `bucket` in the database with a single atomic upsert, so the count holds across server
 * instances and under concurrent requests. Runs outside the request's unit of work: a hit counts even when the
 * request then fails.
 */
export async function hitCounter(em: EntityManager, bucket: string, windowS: number, now: Date): Promise<WindowCount> {
  const cutoff = windowCutoff(now, windowS);
  const rows = await em.getConnection().execute<{ count: string | number; window_start: Date | string }[]>(
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
  return { count: Number(row.count), windowStart: new Date(row.window_start) };
}

/** Takes back one hit (a reserved attempt that succeeded), never below zero. */
export async function releaseHit(em: EntityManager, bucket: string, now: Date): Promise<void> {
  await em
    .getConnection()
    .execute(`update "rate_limit_counter" set count = greatest(count - 1, 0), updated_at = ? where bucket = ?`, [
      now,
      bucket,
    ]);
}

/** Counts a hit and says whether it is within `limit` hits per window. */
export async function hitAndDecide(
  em: EntityManager,
  bucket: string,
  limit: number,
  windowS: number,
  now: Date,
): Promise<LimitDecision> {
  return decide(await hitCounter(em, bucket, windowS, now), limit, windowS, now);
}
