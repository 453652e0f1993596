/**
 * Fixed-window rate limits. A window opens at the first hit of a bucket and lasts `windowS` seconds; the hits
 * in it are counted, and beyond `limit` the bucket is refused until the window closes.
 */
export interface WindowCount {
  count: number;
  windowStart: Date;
}

export interface LimitDecision {
  allowed: boolean;
  /** Seconds until the window closes (at least 1), for `retry_after_s`. */
  retryAfterS: number;
}

/** The instant before which a window that started is over. */
export function windowCutoff(now: Date, windowS: number): Date {
  return new Date(now.getTime() - windowS * 1000);
}

export function decide(hit: WindowCount, limit: number, windowS: number, now: Date): LimitDecision {
  const closesAt = hit.windowStart.getTime() + windowS * 1000;
  const retryAfterS = Math.max(1, Math.ceil((closesAt - now.getTime()) / 1000));
  return { allowed: hit.count <= limit, retryAfterS };
}
