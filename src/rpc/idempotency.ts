import { createHash } from "node:crypto";
import { openSecret, sealSecret } from "../auth/secret-box.ts";
import { claimKey, dropKey, findKey, type KeptAnswer, type KeyRef, keepAnswer } from "../repos/idempotency-keys.ts";
import { unaudited } from "./audit-marks.ts";
import type { Caller, RequestInfo, RpcContext } from "./context.ts";
import { RpcError } from "./errors.ts";
import type { MaybePromise } from "./maybe-async.ts";

/**
 * Safe write retries (issue 32 item 7; docs/decisions.md "Idempotency-Key"). A writing method called on a JSON-RPC
 * endpoint with an `Idempotency-Key` header runs once per (caller, key): the key is claimed by a row inserted in the
 * call's own transaction, so the claim, the call's writes and its answer commit together or not at all. A second
 * call with the same key waits on that row (the unique index) until the first commits, then answers the kept answer
 * without running; the same key with another request is refused (`IdempotencyKeyReused`). A wait past the
 * database's lock timeout is refused with `IdempotencyKeyInUse` and `retry_after_s`. Answers are kept 24 hours,
 * sealed with the encryption key (a kept answer may hold a secret shown once, such as a new API key).
 */

export const IDEMPOTENCY_HEADER = "idempotency-key";
/** Stripe's limit; visible ASCII only, so a key is safe to log and to compare byte for byte. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * Answers not kept, so a retry with the key runs again: an internal error, a rate limit, a provider failure, an
 * approval wait, an unavailable database. Everything else a call that started answers is final and kept.
 */
const RETRYABLE_CODES = new Set([-32603, -32007, -32009, -32010, -32011]);

/** The refusal of a request whose header cannot be honoured, before anything runs; null when it can. */
export function idempotencyRefusal(key: string, batch: boolean): RpcError | null {
  if (!KEY_PATTERN.test(key)) {
    return RpcError.invalidRequest("Idempotency-Key must be 1 to 255 visible ASCII characters");
  }
  if (batch) {
    return RpcError.invalidRequest("Idempotency-Key applies to a single request, not a batch: send each write alone");
  }
  return null;
}

/** Whose key it is: an API key's, a signed-in user's (across sessions), or no one's. */
function scopeOf(caller: Caller | null): string {
  if (!caller) return "anonymous";
  return caller.via === "api_key" && caller.apiKeyId ? `api_key:${caller.apiKeyId}` : `user:${caller.userId}`;
}

/** JSON with object keys sorted, so the same request always has the same fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function fingerprintOf(method: string, params: Record<string, unknown>): string {
  return createHash("sha256").update(canonical({ method, params })).digest("hex");
}

/** Requests whose key a call has claimed: a call nested in it (an approved call replayed) claims nothing. */
const claimed = new WeakSet<RequestInfo>();

/**
 * `work` (the handler, in the call's transaction) run at most once per (caller, key) for a writing method called
 * with an Idempotency-Key; any other call runs `work` as it is.
 */
export function idempotent(
  ctx: RpcContext,
  entry: { name: string; mcp: { readOnly: boolean } },
  params: Record<string, unknown>,
  work: () => MaybePromise<unknown>,
): MaybePromise<unknown> {
  const key = ctx.request.idempotencyKey;
  if (!key || entry.mcp.readOnly || claimed.has(ctx.request)) return work();
  claimed.add(ctx.request);
  const ref = { scope: scopeOf(ctx.caller), key };
  return runOnce(ctx, ref, entry.name, fingerprintOf(entry.name, params), work);
}

async function runOnce(
  ctx: RpcContext,
  ref: KeyRef,
  method: string,
  fingerprint: string,
  work: () => MaybePromise<unknown>,
): Promise<unknown> {
  const now = ctx.now();
  const kept = await claim(ctx, ref, { method, fingerprint, now });
  if (kept) return replay(ctx, kept, fingerprint);
  let result: unknown;
  try {
    result = await work();
  } catch (err) {
    // A final refusal is kept too: after the rollback, the row is written again with it and committed alone.
    if (err instanceof RpcError && !RETRYABLE_CODES.has(err.code)) {
      const answer = seal(ctx, { error: err.toJSON() });
      const row = { method, fingerprint, answer, expiresAt: new Date(now.getTime() + KEPT_FOR_MS) };
      ctx.keepOnRollback((em) => claimKey(em, ref, row, now));
    }
    throw err;
  }
  await keepAnswer(ctx.em, ref, seal(ctx, { result: result ?? null }), ctx.now());
  return result;
}

/** Claims the key (null), or answers the row that holds it; an expired row is dropped and the key claimed anew. */
async function claim(
  ctx: RpcContext,
  ref: KeyRef,
  call: { method: string; fingerprint: string; now: Date },
): Promise<KeptAnswer | null> {
  const row = { ...call, answer: "", expiresAt: new Date(call.now.getTime() + KEPT_FOR_MS) };
  for (let attempt = 0; attempt < 3; attempt++) {
    if ((await claimRow(ctx, ref, row)) === 1) return null;
    const kept = await findKey(ctx.em, ref);
    if (kept && kept.expiresAt > call.now) return kept;
    if (kept) await dropKey(ctx.em, kept.sid);
  }
  throw inUse();
}

async function claimRow(
  ctx: RpcContext,
  ref: KeyRef,
  row: { method: string; fingerprint: string; answer: string; expiresAt: Date; now: Date },
): Promise<number> {
  try {
    return await claimKey(ctx.em, ref, row, row.now);
  } catch (err) {
    // lock_not_available: the first call with this key still runs after the lock timeout.
    if ((err as { code?: unknown }).code === "55P03") throw inUse(err);
    throw err;
  }
}

function inUse(cause?: unknown): RpcError {
  const message = "a call with this Idempotency-Key is still running; retry it";
  return RpcError.app("RpcError", "IdempotencyKeyInUse", message, { retry_after_s: 1 }, cause);
}

/** The kept answer for the same request: its result, or its refusal (which writes no second audit row). */
function replay(ctx: RpcContext, kept: KeptAnswer, fingerprint: string): unknown {
  if (kept.fingerprint !== fingerprint) {
    const message = "this Idempotency-Key was used for another request; send a new key";
    throw RpcError.app("RpcError", "IdempotencyKeyReused", message, { method: kept.method });
  }
  if (kept.answer === "") throw inUse();
  const answer = JSON.parse(openSecret(ctx.config.encryptionKey, kept.answer)) as {
    result?: unknown;
    error?: { code: number; message: string; data?: Record<string, unknown> };
  };
  ctx.request.idempotentReplay = true;
  if (answer.error) throw unaudited(new RpcError(answer.error.code, answer.error.message, answer.error.data));
  return answer.result;
}

function seal(ctx: RpcContext, answer: unknown): string {
  return sealSecret(ctx.config.encryptionKey, JSON.stringify(answer));
}
