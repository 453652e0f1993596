import type { ErrorObject } from "ajv";
import type { MethodEntry } from "../../generated/registry.ts";
import { mayActAsResident } from "../auth/access.ts";
import { SIGNATURE_HEADER, verifyWebhookSignature } from "../auth/webhook-signature.ts";
import { writeAudit } from "../repos/audit-log.ts";
import { auditDetailsOf, isUnaudited } from "./audit-marks.ts";
import { inCallTransaction } from "./call-transaction.ts";
import type { RpcContext } from "./context.ts";
import { isAdminSession } from "./context.ts";
import { declaredError } from "./declared-errors.ts";
import { RpcError } from "./errors.ts";
import { idempotent } from "./idempotency.ts";
import { refuseNul } from "./jsonrpc.ts";
import { isPromiseLike, type MaybePromise } from "./maybe-async.ts";
import { checkAccountPassword } from "./password-check.ts";
import { redactResultSecrets } from "./result-secrets.ts";
import { checkActsAs, checkTarget } from "./target.ts";
import { checkVisibility, visibleItems, withVisibilityDetails } from "./visibility.ts";

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

function checkPassword(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> {
  if (!entry.password) return Promise.resolve();
  return checkAccountPassword(ctx, errorType(entry) as never, params[entry.password]);
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
  if (!entry.audit || !ctx.caller || isUnaudited(outcome.result ?? outcome.error)) return;
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
        ...ctx.auditContext,
        ...(outcome.error ? { error: outcome.error.data?.variant ?? outcome.error.code } : {}),
        ...auditDetailsOf(outcome.error ?? outcome.result),
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

/** Whether the call writes an audit row (success or refusal): an audited method with a known caller. */
const auditDue = (entry: Entry, ctx: RpcContext) => entry.audit !== null && ctx.caller !== null;

/**
 * The handler's answer: what it throws answered as its method declares (`declaredError`), its result with embedded
 * secrets set to null (`redactResultSecrets`) and checked against the schema and, for an audited method, its audit row written. A value when the handler returned one and
 * nothing was written.
 */
function handled(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): MaybePromise<unknown> {
  const finish = (answer: unknown): MaybePromise<unknown> => {
    const result = entry.resultSecrets ? redactResultSecrets(answer, entry.resultSecrets) : answer;
    checkResult(entry, ctx, result);
    // The audit row reads the handler's own answer: its marks (unaudited, details) are not copied by redaction.
    return auditDue(entry, ctx) ? audit(entry, ctx, params, { result: answer }).then(() => result) : result;
  };
  let value: unknown;
  try {
    value = entry.invoke(ctx, params);
  } catch (err) {
    throw declaredError(entry, ctx, err);
  }
  // x-visibility: a list keeps the records the caller may view; a read carries the decision to its audit row.
  if (entry.visibility) {
    value = Promise.resolve(value)
      .then((answer) => visibleItems(entry, ctx, answer))
      .then((answer) => withVisibilityDetails(ctx, answer));
  }
  if (!isPromiseLike(value)) return finish(value);
  return value.then(finish, (err: unknown) => {
    throw declaredError(entry, ctx, err);
  });
}

/**
 * The handler in the call's transaction (`inCallTransaction`; a read-only method opens none), once per
 * Idempotency-Key for a write that carries one (src/rpc/idempotency.ts).
 */
function runHandler(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): MaybePromise<unknown> {
  return inCallTransaction(ctx, entry.mcp.readOnly, () =>
    idempotent(ctx, entry, params, () => handled(entry, ctx, params)),
  );
}

/** One check of the policy: undefined when it decided at once, a promise when it had to read the database. */
type Check = (entry: Entry, ctx: RpcContext, params: Record<string, unknown>) => void | Promise<void>;

/**
 * The spec's policy for a call from outside, in order: x-auth, x-internal and the caller-bound params filled in;
 * a missing password (`PasswordRequired` before the schema would say the param is missing); NUL characters; the
 * params schema; the caller binding checked; the target (x-target: load, company role, company status;
 * src/rpc/target.ts); the document a read names (x-visibility, src/rpc/visibility.ts); the acting resident (x-acts-as); password re-entry. A check that needs nothing from the
 * database answers at once, so a call that reads nothing before its handler runs without a promise of its own
 * (on Node 20 every promise pays the AsyncLocalStorage hooks MikroORM installs; src/rpc/maybe-async.ts).
 */
const OUTSIDE_CALL: readonly Check[] = [
  checkCaller,
  (entry, ctx, params) =>
    entry.password && ctx.caller && params[entry.password] === undefined
      ? checkPassword(entry, ctx, params)
      : undefined,
  (_entry, _ctx, params) => refuseNul(params, "params"),
  (entry, _ctx, params) => checkParams(entry, params),
  checkCallerBinding,
  (entry, ctx, params) => (entry.target ? checkTarget(entry, ctx, params) : undefined),
  (entry, ctx, params) => (entry.visibility?.param ? checkVisibility(entry, ctx, params) : undefined),
  (entry, ctx, params) => (entry.actsAs ? checkActsAs(entry, ctx, params) : undefined),
  (entry, ctx, params) => (entry.password && ctx.caller ? checkPassword(entry, ctx, params) : undefined),
];

/** Runs `checks` from `from` on, synchronously until one has to wait. */
function runChecks(
  checks: readonly Check[],
  entry: Entry,
  ctx: RpcContext,
  params: Record<string, unknown>,
  from = 0,
): undefined | Promise<void> {
  for (let i = from; i < checks.length; i++) {
    const waiting = (checks[i] as Check)(entry, ctx, params);
    if (isPromiseLike(waiting)) return waiting.then(() => runChecks(checks, entry, ctx, params, i + 1));
  }
  return undefined;
}

/**
 * A refused call: an audited method's row for a known caller is written (after the rollback), then it throws on;
 * with no row due it throws at once (a refusal of the synchronous path stays synchronous).
 */
function refused(entry: Entry, ctx: RpcContext, params: Record<string, unknown>, err: unknown): Promise<never> {
  if (!(err instanceof RpcError) || !auditDue(entry, ctx)) throw err;
  return audit(entry, ctx, params, { error: err }).then(() => Promise.reject(err));
}

/**
 * The row a refusal in `run` writes, for a call refused before it reached the dispatcher (an agent key's policy or
 * its arguments' schema, src/mcp/execute.ts): the audited method's row with allowed false, nothing for other
 * methods. Outside any call transaction, so nothing rolls it back.
 */
export async function auditRefusal(
  entry: Entry,
  ctx: RpcContext,
  params: Record<string, unknown>,
  error: RpcError,
): Promise<void> {
  if (auditDue(entry, ctx)) await audit(entry, ctx, params, { error });
}

/**
 * The one dispatch path: `checks`, then the handler (`runHandler`). An audited method writes its row with the
 * call's writes on success, and after the rollback on every refusal of a known caller (allowed: false), so the
 * denial survives it. Answers at once (a value, or a throw) when nothing on the way waited: a read-only call whose
 * checks read nothing, whose handler returned a value and which writes no audit row; else a promise.
 */
function run(
  checks: readonly Check[],
  entry: Entry,
  ctx: RpcContext,
  params: Record<string, unknown>,
): MaybePromise<unknown> {
  let answer: MaybePromise<unknown>;
  try {
    const checked = runChecks(checks, entry, ctx, params);
    answer = checked ? checked.then(() => runHandler(entry, ctx, params)) : runHandler(entry, ctx, params);
  } catch (err) {
    return refused(entry, ctx, params, err);
  }
  return isPromiseLike(answer) ? answer.then(undefined, (err: unknown) => refused(entry, ctx, params, err)) : answer;
}

/** Runs one call from outside through the spec's policy (`OUTSIDE_CALL`) and its handler; see `run`. */
export function dispatchCall(entry: Entry, ctx: RpcContext, rawParams: unknown): MaybePromise<unknown> {
  return run(OUTSIDE_CALL, entry, ctx, namedParams(rawParams));
}

/** `dispatchCall`, always as a promise. */
export async function dispatch(entry: Entry, ctx: RpcContext, rawParams: unknown): Promise<unknown> {
  return dispatchCall(entry, ctx, rawParams);
}
