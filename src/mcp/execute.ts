import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { metricsOf } from "../app/metrics.ts";
import { ownConnection, writeSlots } from "../db/orm.ts";
import { toEur } from "../integrations/fx/index.ts";
import { createCallContext } from "../rpc/call-context.ts";
import type { RpcContext } from "../rpc/context.ts";
import { dispatch, type Entry, fillCallerBinding } from "../rpc/dispatcher.ts";
import { logCause, RpcError } from "../rpc/errors.ts";
import { createApproval, type PendingApproval } from "./approval-store.ts";
import type { CallStatus } from "./call-log.ts";
import type { McpDeps } from "./deps.ts";
import type { Invocation } from "./invocation.ts";
import { approvalReason, type Refusal, toolRefusal, transactionRefusal, usageWindows } from "./policy.ts";
import { summarizeArguments } from "./sanitize.ts";
import { consumeUsage, refundAmount } from "./usage.ts";

export type ToolOutcome =
  | { kind: "result"; result: unknown }
  | { kind: "pending"; pending: PendingApproval }
  | { kind: "error"; error: RpcError };

export function toolContext(deps: McpDeps, em: EntityManager, inv: Invocation): RpcContext {
  const { config, log } = deps.runtime;
  return createCallContext({
    em: () => em,
    ownConnection: ownConnection(deps.runtime.orm),
    writeSlots: writeSlots(deps.runtime.orm),
    caller: inv.caller,
    config,
    request: inv.request,
    method: inv.entry,
    log,
  });
}

/** The call's amount (its `x-mcp.amountParam`), the currency it is in, and the EUR figure the limits use. */
async function amountOf(deps: McpDeps, entry: Entry, params: Record<string, unknown>, now: Date) {
  const name = entry.mcp.amountParam;
  const raw = name ? params[name] : undefined;
  if (!name || typeof raw !== "number" || raw <= 0) return { amount: 0, eur: null };
  const prefix = name.endsWith("_amount") ? name.slice(0, -"amount".length) : "";
  const named = params[`${prefix}currency`] ?? params["currency"];
  // Credits are USD (API.md "Values"); an amount with no currency param is taken as EUR.
  const currency = typeof named === "string" ? named : entry.owner === "CreditService" ? "USD" : "EUR";
  return { amount: raw, eur: await toEur(deps.fx, raw, currency, now) };
}

export const refusalError = (r: Refusal): RpcError => RpcError.app("ApiKeyError", r.variant, r.message, r.details);

function asRpcError(deps: McpDeps, err: unknown, inv: Invocation): RpcError {
  if (err instanceof RpcError) {
    logCause(deps.runtime.log, err, { requestId: inv.request.requestId, tool: inv.toolName });
    return err;
  }
  if (err instanceof UniqueConstraintViolationException) {
    return RpcError.app("RpcError", "AlreadyExists", "a record with the same unique value already exists");
  }
  deps.runtime.log.error({ requestId: inv.request.requestId, tool: inv.toolName, err }, "MCP tool call failed");
  return RpcError.internal();
}

/** Errors the agent must fix in its request are JSON-RPC errors; everything else is an `isError` tool result. */
export const isProtocolError = (error: RpcError): boolean => error.code === -32602 || error.code === -32603;

/**
 * Runs one tool call through the key's tier policy and then the same dispatcher as `/rpc`, and writes its
 * McpCallLog row. Order: arguments (caller binding filled, schema), scope and tool patterns, amount per
 * transaction, approval (not on replay), call and spending counters, dispatch.
 */
export async function runTool(deps: McpDeps, inv: Invocation): Promise<ToolOutcome> {
  const now = deps.runtime.config.clock();
  const em = inv.within ? inv.within.fork({ keepTransactionContext: true }) : deps.runtime.orm.em.fork();
  const ctx = toolContext(deps, em, inv);
  const keyId = inv.caller.apiKeyId ?? "";
  const log = (status: CallStatus, message: string, amount = 0, eur: number | null = null, approval = inv.approvalId) =>
    deps.callLog.write(inv.within ? em : null, {
      apiKeyId: keyId,
      userId: inv.caller.userId,
      toolName: inv.toolName,
      argumentsSummary: summarizeArguments(inv.args),
      amount,
      amountEur: eur,
      status,
      errorMessage: message,
      approvalId: approval,
      at: now,
    });
  const metrics = metricsOf(deps.runtime);
  const fail = async (error: RpcError, status: CallStatus, amount = 0, eur: number | null = null) => {
    await log(status, error.message, amount, eur);
    metrics?.toolCall(inv.toolName, status === "rejected" ? "refused" : "error");
    if (isProtocolError(error)) throw error;
    return { kind: "error", error } as const;
  };

  const args = inv.args ?? {};
  if (typeof args !== "object" || Array.isArray(args)) {
    return fail(RpcError.invalidParams("arguments must be an object"), "error");
  }
  const params: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  fillCallerBinding(inv.entry, ctx, params);
  if (!inv.entry.validateParams(params)) {
    const errors = (inv.entry.validateParams.errors ?? []).map((e) => ({
      path: e.instancePath || "/",
      message: e.message,
    }));
    return fail(
      RpcError.invalidParams(`${errors[0]?.path ?? "/"} ${errors[0]?.message ?? "invalid"}`, errors),
      "error",
    );
  }

  const policy = await deps.policies.get(em, keyId, inv.approvalId !== null);
  if (!policy) return fail(RpcError.unauthenticated("KeyRevoked", "API key no longer exists"), "rejected");
  const denied = toolRefusal(policy, inv.toolName, inv.entry.mcp.readOnly);
  if (denied) return fail(refusalError(denied), "rejected");

  let money: { amount: number; eur: number | null };
  try {
    money = await amountOf(deps, inv.entry, params, now);
  } catch (err) {
    return fail(asRpcError(deps, err, inv), "rejected");
  }
  const eur = money.eur ?? 0;
  const overTransaction = transactionRefusal(policy, eur);
  if (overTransaction) return fail(refusalError(overTransaction), "rejected", money.amount, money.eur);

  const reason = inv.approvalId ? null : approvalReason(policy, inv.toolName, eur);
  if (reason) {
    // The request itself counts as a call; its amount is counted when the approved call runs.
    const refused = await consumeUsage(em, keyId, usageWindows(policy, 0, now), now);
    if (refused) return fail(refusalError(refused), "rejected", money.amount, money.eur);
    const pending = await createApproval(deps, em, inv, { reason, amount: money.amount, now });
    await log("success", "", money.amount, money.eur, pending.approval_id);
    metrics?.toolCall(inv.toolName, "approval_required");
    return { kind: "pending", pending };
  }

  const windows = usageWindows(policy, eur, now);
  const refused = await consumeUsage(em, keyId, windows, now);
  if (refused) return fail(refusalError(refused), "rejected", money.amount, money.eur);

  try {
    if (inv.signal?.aborted) throw RpcError.internal();
    const result = await dispatch(inv.entry, ctx, params);
    await log("success", "", money.amount, money.eur);
    metrics?.toolCall(inv.toolName, "ok");
    return { kind: "result", result };
  } catch (err) {
    await refundAmount(em, keyId, windows);
    return fail(asRpcError(deps, err, inv), "error", money.amount, money.eur);
  }
}
