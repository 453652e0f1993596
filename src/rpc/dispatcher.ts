import type { ErrorObject } from "ajv";
import type { MethodEntry } from "../../generated/registry.ts";
import { companyRoles, mayActAsResident, satisfiesCompanyRole } from "../auth/access.ts";
import { reserveAttempt } from "../auth/limits.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { SIGNATURE_HEADER, verifyWebhookSignature } from "../auth/webhook-signature.ts";
import { writeAudit } from "../repos/audit-log.ts";
import { passwordHashOf } from "../repos/users.ts";
import { isUnaudited } from "./audit-marks.ts";
import { inCallTransaction } from "./call-transaction.ts";
import type { RpcContext } from "./context.ts";
import { isAdminSession } from "./context.ts";
import { invokeDeclared } from "./declared-errors.ts";
import { RpcError } from "./errors.ts";
import { refuseNul } from "./jsonrpc.ts";

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
async function checkAuth(entry: Entry, ctx: RpcContext): Promise<void> {
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
export function fillCallerBinding(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): void {
  const binding = entry.callerBinding;
  if (!binding || !ctx.caller || params[binding.param] !== undefined) return;
  if (binding.kind === "user") params[binding.param] = ctx.caller.userId;
  if (binding.kind === "partner" && ctx.caller.partnerId) params[binding.param] = ctx.caller.partnerId;
}

async function checkCallerBinding(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> {
  const binding = entry.callerBinding;
  if (!binding || !ctx.caller) return;
  const value = params[binding.param];
  const type = errorType(entry) as never;
  if (binding.adminMayOverride && isAdminSession(ctx.caller)) return;
  const refuse = () => {
    throw RpcError.forbidden(type, "NotOwner", `${binding.param} must name the caller`);
  };
  if (binding.kind === "user" && value !== ctx.caller.userId) refuse();
  if (binding.kind === "partner" && value !== ctx.caller.partnerId) refuse();
  if (
    binding.kind === "resident" &&
    (typeof value !== "string" || !(await mayActAsResident(ctx.em, ctx.caller, value, ctx.now())))
  ) {
    refuse();
  }
}

async function checkCompanyRole(entry: Entry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> {
  if (!entry.auth.startsWith("company:") || !ctx.caller || isAdminSession(ctx.caller)) return;
  const required = entry.auth.slice("company:".length);
  const companyId = params["company_id"] ?? params["fzc_id"];
  const type = errorType(entry) as never;
  if (typeof companyId !== "string") return;
  const held = await companyRoles(ctx.em, ctx.caller, companyId, ctx.now());
  if (held === null || held.length === 0) throw RpcError.notFound(type, "company");
  if (!satisfiesCompanyRole(held, required))
    throw RpcError.forbidden(type, "Forbidden", `needs the ${required} role in ${companyId}`);
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

/**
 * Runs one call through the spec's policy, in order: x-auth, x-internal, caller binding (fill), params schema,
 * caller binding (check), company role, password re-entry, then the handler in the call's transaction (see
 * `inCallTransaction`). An audited method writes its row with the call's writes on success, and after the
 * rollback on every refusal of a known caller (allowed: false), so the denial survives it.
 */
export async function dispatch(entry: Entry, ctx: RpcContext, rawParams: unknown): Promise<unknown> {
  if (rawParams !== undefined && (rawParams === null || typeof rawParams !== "object" || Array.isArray(rawParams))) {
    throw RpcError.invalidParams("params must be an object of named parameters");
  }
  const params: Record<string, unknown> = { ...((rawParams ?? {}) as Record<string, unknown>) };
  try {
    await checkAuth(entry, ctx);
    if (entry.internal) throw RpcError.forbidden(errorType(entry) as never, "Internal", `${entry.name} is internal`);
    fillCallerBinding(entry, ctx, params);
    if (entry.password && ctx.caller && params[entry.password] === undefined) await checkPassword(entry, ctx, params);
    refuseNul(params, "params");
    if (!entry.validateParams(params)) {
      const errors = ajvErrors(entry.validateParams.errors);
      throw RpcError.invalidParams(describe(errors), errors);
    }
    await checkCallerBinding(entry, ctx, params);
    await checkCompanyRole(entry, ctx, params);
    await checkPassword(entry, ctx, params);
    return await inCallTransaction(ctx, entry.mcp.readOnly, async () => {
      const result = await invokeDeclared(entry, ctx, () => entry.invoke(ctx, params));
      if (ctx.config.validateResults && !entry.validateResult(result)) {
        ctx.log.error({ method: entry.name, errors: entry.validateResult.errors }, "result does not match its schema");
        throw RpcError.internal();
      }
      await audit(entry, ctx, params, { result });
      return result;
    });
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
    if (!entry.validateParams(params)) {
      const errors = ajvErrors(entry.validateParams.errors);
      throw RpcError.invalidParams(describe(errors), errors);
    }
    return await inCallTransaction(ctx, entry.mcp.readOnly, async () => {
      const result = await invokeDeclared(entry, ctx, () => entry.invoke(ctx, params));
      if (ctx.config.validateResults && !entry.validateResult(result)) {
        ctx.log.error({ method: entry.name, errors: entry.validateResult.errors }, "result does not match its schema");
        throw RpcError.internal();
      }
      await audit(entry, ctx, params, { result });
      return result;
    });
  } catch (err) {
    if (err instanceof RpcError) await audit(entry, ctx, params, { error: err });
    throw err;
  }
}
