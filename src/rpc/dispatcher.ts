import type { ErrorObject } from "ajv";
import type { MethodEntry } from "../../generated/registry.ts";
import { mayActAsResident } from "../auth/access.ts";
import { reserveAttempt } from "../auth/limits.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { SIGNATURE_HEADER, verifyWebhookSignature } from "../auth/webhook-signature.ts";
import { writeAudit } from "../repos/audit-log.ts";
import { passwordHashOf } from "../repos/users.ts";
import { isUnaudited } from "./audit-marks.ts";
import { openedEntityManager } from "./call-context.ts";
import { inCallTransaction } from "./call-transaction.ts";
import type { RpcContext } from "./context.ts";
import { isAdminSession } from "./context.ts";
import { declaredError, invokeDeclared } from "./declared-errors.ts";
import { RpcError } from "./errors.ts";
import { refuseNul } from "./jsonrpc.ts";
import { isPromiseLike } from "./maybe-async.ts";
import { checkActsAs, checkTarget } from "./target.ts";

export type Entry = MethodEntry<RpcContext>;

function errorType(entry: Entry): string {
  return Object.keys(entry.errors)[0] ?? "RpcError";
}

function ajvErrors(errors: ErrorObject[] | null | undefined): { path: string; message: string; params: unknown }[] {
  return (errors ?? []).map((e) => ({
    path: e.instancePath || "/",
    message: e.message ?? "invalid",
    params: e.params,
  }));
}

function describe(errors: { path: string; message: string; params: unknown }[]): string {
  const first = errors[0];
  if (!first) return "does not match the schema";
  const extra = (first.params as { additionalProperty?: string }).additionalProperty;
  return extra ? `unknown param "${extra.slice(0, 256)}"` : `${first.path.slice(0, 256)} ${first.message}`;
}

/** x-auth: who may call at all. Failing here is -32001 (no caller) or -32002 (wrong kind of caller). */
function checkAuth(entry: Entry, ctx: RpcContext): void {
  const type = errorType(entry) as never;
  const { caller } = ctx;
  const auth = entry.auth;
  if (auth === "anonymous") return;
  if (auth === "webhook") {
    verifyWebhookSignature(
      ctx.config.webhookSecret,
      ctx.request.headers[SIGNATURE_HEADER],
      ctx.request.rawBody,
      ctx.now(),
    );
    return;
  }
  if (!caller) throw RpcError.unauthenticated();
  if (auth === "session" && caller.via !== "session") {
    throw RpcError.forbidden(type, "SessionRequired", "this operation needs a signed-in session, not an API key");
  }
  if (auth === "admin" && !isAdminSession(caller))
    throw RpcError.forbidden(type, "AdminOnly", "administrators only (signed-in session)");
  if (auth === "partner" && (caller.via !== "api_key" || caller.partnerId === null)) {
    throw RpcError.forbidden(type, "Forbidden", "a reseller API key is required");
  }
}

/** Fills an omitted caller-bound user id before validation (API.md "Caller-bound params"). */
export function fillCallerBinding(
  entry: Entry,
  ctx: Pick<RpcContext, "caller">,
  params: Record<string, unknown>,
): void {
  const binding = entry.callerBinding;
  if (!binding || !ctx.caller || params[binding.param] !== undefined) return;
  if (binding.kind === "user") params[binding.param] = ctx.caller.userId;
  if (binding.kind === "partner" && ctx.caller.partnerId) params[binding.param] = ctx.caller.partnerId;
}

/** Caller binding (check): only the resident kind reads the database, so it alone answers with a promise. */
function checkCallerBinding(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> | undefined {
  const binding = entry.callerBinding;
  const { caller } = ctx;
  if (!binding || !caller) return;
  const value = params[binding.param];
  if (binding.adminMayOverride && isAdminSession(caller)) return;
  const notOwner = () =>
    RpcError.forbidden(errorType(entry) as never, "NotOwner", `${binding.param} must name the caller`);
  if (binding.kind === "resident") {
    if (typeof value !== "string") throw notOwner();
    return mayActAsResident(ctx.em, caller, value, ctx.now()).then((may) => {
      if (!may) throw notOwner();
    });
  }
  if (value !== (binding.kind === "user" ? caller.userId : caller.partnerId)) throw notOwner();
}

async function checkPassword(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> {
  if (!entry.password || !ctx.caller) return;
  const type = errorType(entry) as never;
  const password = params[entry.password];
  if (typeof password !== "string" || password.length === 0) {
    throw RpcError.forbidden(type, "PasswordRequired", "this operation needs the account password");
  }
  // Re-entry can be guessed with a stolen session: wrong passwords count per account like failed logins.
  const succeeded = await reserveAttempt(ctx, type, `password:${ctx.caller.userId}`);
  const hash = await passwordHashOf(ctx.em, ctx.caller.userId);
  if (hash === null || !(await verifyPassword(hash, password))) {
    throw RpcError.forbidden(type, "WrongPassword", "wrong password");
  }
  await succeeded();
}

/** A target reference as given: strings and numbers only (refused params may hold anything), at most 256 chars. */
function auditRef(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value).slice(0, 256) : "";
}

async function audit(
  entry: Entry,
  ctx: RpcContext,
  params: Record<string, unknown>,
  outcome: { result?: unknown; error?: RpcError },
) {
  if (!entry.audit || !ctx.caller || isUnaudited(outcome.result)) return;
  const fromParams = entry.audit.targetParam ? params[entry.audit.targetParam] : undefined;
  const fromResult = (outcome.result as { sid?: unknown } | undefined)?.sid;
  await writeAudit(
    ctx.em,
    {
      subjectId: ctx.caller.userId,
      action: entry.audit.action,
      targetRef: auditRef(fromParams ?? fromResult),
      targetType: entry.audit.targetType ?? "other",
      allowed: outcome.error === undefined,
      context: {
        method: entry.name,
        via: ctx.caller.via,
        ...(ctx.caller.apiKeyId ? { api_key_id: ctx.caller.apiKeyId } : {}),
        ...(ctx.caller.partnerId ? { partner_id: ctx.caller.partnerId } : {}),
        ...(outcome.error ? { error: outcome.error.data?.variant ?? outcome.error.code } : {}),
      },
    },
    ctx.now(),
  );
}

/** Params as a fresh object of named parameters (the checks fill in caller-bound ones). */
function namedParams(rawParams: unknown): Record<string, unknown> {
  if (rawParams !== undefined && (rawParams === null || typeof rawParams !== "object" || Array.isArray(rawParams))) {
    throw RpcError.invalidParams("params must be an object of named parameters");
  }
  return { ...((rawParams ?? {}) as Record<string, unknown>) };
}

/** x-auth, x-internal, then the caller-bound params filled in: the checks before the params are validated. */
function checkCaller(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): void {
  checkAuth(entry, ctx);
  if (entry.internal) throw RpcError.forbidden(errorType(entry) as never, "Internal", `${entry.name} is internal`);
  fillCallerBinding(entry, ctx, params);
}

function checkParams(entry: Entry, params: Record<string, unknown>): void {
  if (!entry.validateParams(params)) {
    const errors = ajvErrors(entry.validateParams.errors);
    throw RpcError.invalidParams(describe(errors), errors);
  }
}

function checkResult(entry: Entry, ctx: RpcContext, result: unknown): void {
  if (ctx.config.validateResults && !entry.validateResult(result)) {
    ctx.log.error({ method: entry.name, errors: entry.validateResult.errors }, "result does not match its schema");
    throw RpcError.internal();
  }
}

/** The handler, its result checked and its audit row written, in the call's transaction. */
function runHandler(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): Promise<unknown> {
  return inCallTransaction(ctx, entry.mcp.readOnly, async () => {
    const result = await invokeDeclared(entry, ctx, () => entry.invoke(ctx, params));
    checkResult(entry, ctx, result);
    await audit(entry, ctx, params, { result });
    return result;
  });
}

/**
 * Whether a call runs without waiting for anything but its handler: a read-only method (no transaction) for which
 * no policy check reads the database (caller binding to a resident, target, acting resident, password re-entry) and no audit
 * row is written (no x-audit, or no known caller).
 */
function waitsOnlyForHandler(entry: Entry, ctx: RpcContext): boolean {
  if (!entry.mcp.readOnly) return false;
  const { caller } = ctx;
  if (caller === null) return true;
  return (
    entry.audit === null &&
    entry.password === null &&
    entry.callerBinding?.kind !== "resident" &&
    entry.target === null &&
    entry.actsAs === null
  );
}

/**
 * The policy of `dispatch` for a call that `waitsOnlyForHandler`, without a promise of its own: every check is
 * synchronous, the handler's value is awaited only when it is a promise, and the unit of work is flushed only when
 * the handler opened it (what `inCallTransaction` does for read-only methods). No audit row can be due, so a refusal
 * writes none either.
 */
function dispatchNow(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): unknown {
  checkCaller(entry, ctx, params);
  refuseNul(params, "params");
  checkParams(entry, params);
  checkCallerBinding(entry, ctx, params); // never a promise here: no resident binding
  let value: unknown;
  try {
    value = entry.invoke(ctx, params);
  } catch (err) {
    throw declaredError(entry, ctx, err);
  }
  if (!isPromiseLike(value)) return finishReadOnly(entry, ctx, value);
  return value.then(
    (result) => finishReadOnly(entry, ctx, result),
    (err: unknown) => {
      throw declaredError(entry, ctx, err);
    },
  );
}

function finishReadOnly(entry: Entry, ctx: RpcContext, result: unknown): unknown {
  checkResult(entry, ctx, result);
  // Nothing but audit rows (native inserts) should be written here; a stray entity change still lands.
  const em = openedEntityManager(ctx);
  return em ? em.flush().then(() => result) : result;
}

/**
 * Runs one call through the spec's policy, in order: x-auth, x-internal, caller binding (fill), params schema,
 * caller binding (check), target (x-target: load, company role, company status; src/rpc/target.ts), acting
 * resident (x-acts-as), password re-entry, then the handler in the call's transaction (see
 * `inCallTransaction`). An audited method writes its row with the call's writes on success, and after the
 * rollback on every refusal of a known caller (allowed: false), so the denial survives it.
 */
export async function dispatch(entry: Entry, ctx: RpcContext, rawParams: unknown): Promise<unknown> {
  return dispatchCall(entry, ctx, rawParams);
}

/**
 * `dispatch`, answering at once (a value, or a throw) when nothing on the way is asynchronous: a read-only call that
 * `waitsOnlyForHandler` and whose handler returns a value. Else a promise, as `dispatch`.
 */
export function dispatchCall(entry: Entry, ctx: RpcContext, rawParams: unknown): unknown {
  const params = namedParams(rawParams);
  return waitsOnlyForHandler(entry, ctx) ? dispatchNow(entry, ctx, params) : dispatchAsync(entry, ctx, params);
}

async function dispatchAsync(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): Promise<unknown> {
  try {
    checkCaller(entry, ctx, params);
    if (entry.password && ctx.caller && params[entry.password] === undefined) await checkPassword(entry, ctx, params);
    refuseNul(params, "params");
    checkParams(entry, params);
    await checkCallerBinding(entry, ctx, params);
    await checkTarget(entry, ctx, params);
    await checkActsAs(entry, ctx, params);
    await checkPassword(entry, ctx, params);
    return await runHandler(entry, ctx, params);
  } catch (err) {
    if (err instanceof RpcError) await audit(entry, ctx, params, { error: err });
    throw err;
  }
}

/**
 * A call the server makes itself (an `x-internal` method such as creditservice.debit_ai_query, on behalf of
 * `ctx.caller`): no x-auth, internal or caller-binding check (the server chose the params), but the params schema,
 * the call's transaction, declared errors, result validation and the audit row as for any call.
 */
export async function dispatchInternal(
  entry: Entry,
  ctx: RpcContext,
  rawParams: Record<string, unknown>,
): Promise<unknown> {
  const params: Record<string, unknown> = { ...rawParams };
  try {
    checkParams(entry, params);
    return await runHandler(entry, ctx, params);
  } catch (err) {
    if (err instanceof RpcError) await audit(entry, ctx, params, { error: err });
    throw err;
  }
}
