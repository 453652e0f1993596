import type { ErrorType } from "../../generated/codes.ts";
import { decide } from "../domain/rate-limit.ts";
import { clearBucket, hitCounter, releaseHit } from "../repos/rate-limit-counters.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** Account buckets of failed secrets: reserveAttempt counts there, forgetFailures clears them. */
export const loginBucket = (normalizedEmail: string): string => `login:${normalizedEmail}`;

/**
 * Counts one hit, committed at once (`ctx.commitNow`): a concurrent attempt sees it, and a rollback of the call
 * does not take it back, so a failed call still counts.
 */
async function hit(ctx: RpcContext, bucket: string, limit: number, windowS: number) {
  const now = ctx.now();
  return decide(await ctx.commitNow((em) => hitCounter(em, bucket, windowS, now)), limit, windowS, now);
}

function rateLimited(type: ErrorType, retryAfterS: number): RpcError {
  return RpcError.app(type, "RateLimited", "too many attempts; try again later", { retry_after_s: retryAfterS });
}

/**
 * Per client address: every attempt counts (API.md: 60 a minute across the anonymous auth operations).
 * `scope` separates pools that must not starve each other (polling, front-end error reports).
 */
export async function limitAddress(
  ctx: RpcContext,
  type: ErrorType,
  scope = "auth",
  perMinute = ctx.config.rateLimits.perAddressPerMinute,
): Promise<void> {
  const decision = await hit(ctx, `addr:${scope}:${ctx.request.ip}`, perMinute, 60);
  if (!decision.allowed) throw rateLimited(type, decision.retryAfterS);
}

/**
 * Per account failures (10 in 15 minutes by default). The attempt is reserved before the secret is checked, so
 * concurrent guesses cannot overshoot the limit; the returned function gives it back when the attempt succeeded,
 * so only failures stay counted. Once the limit is reached every attempt is refused until the window closes,
 * whatever its outcome would have been. The give-back survives a rollback like the hit: a right secret is no
 * failure even when the call then fails for another reason (a suspended account, a challenge spent meanwhile).
 */
export async function reserveAttempt(ctx: RpcContext, type: ErrorType, bucket: string): Promise<() => Promise<void>> {
  const { perAccountFailures, perAccountWindowS } = ctx.config.rateLimits;
  const key = `acct:${bucket}`;
  const decision = await hit(ctx, key, perAccountFailures, perAccountWindowS);
  if (!decision.allowed) throw rateLimited(type, decision.retryAfterS);
  return async () => {
    await ctx.commitNow((em) => releaseHit(em, key, ctx.now()));
  };
}

/** Forgets the failures counted on an account bucket (a password reset lifts the login lockout). */
export async function forgetFailures(ctx: Pick<RpcContext, "em">, bucket: string): Promise<void> {
  await clearBucket(ctx.em, `acct:${bucket}`);
}

/** A quota of events per subject (emails per recipient, recoveries per account): every event counts. */
export async function limitQuota(
  ctx: RpcContext,
  type: ErrorType,
  bucket: string,
  limit: number,
  windowS: number,
): Promise<void> {
  const decision = await hit(ctx, `quota:${bucket}`, limit, windowS);
  if (!decision.allowed) throw rateLimited(type, decision.retryAfterS);
}
