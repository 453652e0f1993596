import type { EntityManager } from "@mikro-orm/postgresql";
import { ownConnection, writeSlots } from "../db/orm.ts";
import { metricsOf } from "../metrics/metrics.ts";
import { createCallContext } from "../rpc/call-context.ts";
import type { RpcContext } from "../rpc/context.ts";
import { auditRefusal, dispatch, type Entry, fillCallerBinding } from "../rpc/dispatcher.ts";
import { logCause, RpcError } from "../rpc/errors.ts";
import { declaredFault, faultDetail } from "../rpc/unexpected-error.ts";
import { createApproval, type PendingApproval } from "./approval-store.ts";
import type { CallStatus } from "./call-log.ts";
import type { McpDeps } from "./deps.ts";
import { dryRun } from "./dry-run.ts";
import type { CallEndpoint, Invocation } from "./invocation.ts";
import { aloneRefusal, patternReason, thresholdReason, toolRefusal, usageWindows } from "./policy.ts";
import { summarizeArguments } from "./sanitize.ts";
import { isKeyRefusal, KeySpending, keyRefusal, type MeterMode, type Spent } from "./spending.ts";
import { consumeUsage } from "./usage.ts";

export type ToolOutcome =
  | { kind: "result"; result: unknown }
  | { kind: "pending"; pending: PendingApproval }
  | { kind: "error"; error: RpcError };

/** What every audit row of a tool call adds to its context: the endpoint it came through. */
const AUDIT_CONTEXT: Record<CallEndpoint, Readonly<Record<string, unknown>>> = {
  mcp: Object.freeze({ endpoint: "mcp" }),
  rpc: Object.freeze({ endpoint: "rpc" }),
  approval: Object.freeze({ endpoint: "approval" }),
};

/** A tool call's context; `spending` null for the refusals answered before the dispatch (nothing moves there). */
export function toolContext(
  deps: McpDeps,
  em: EntityManager,
  inv: Invocation,
  spending: KeySpending | null,
): RpcContext {
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
    ...(spending ? { spending } : {}),
    auditContext: AUDIT_CONTEXT[inv.endpoint],
  });
}

function asRpcError(deps: McpDeps, err: unknown, inv: Invocation): RpcError {
  if (err instanceof RpcError) {
    logCause(deps.runtime.log, err, { requestId: inv.request.requestId, tool: inv.toolName });
    return err;
  }
  const declared = declaredFault(err);
  if (declared) {
    logCause(deps.runtime.log, declared, { requestId: inv.request.requestId, tool: inv.toolName });
    return declared;
  }
  deps.runtime.log.error(
    { requestId: inv.request.requestId, tool: inv.toolName, err, ...faultDetail(err) },
    "MCP tool call failed",
  );
  return RpcError.internal();
}

/** Errors the agent must fix in its request are JSON-RPC errors; everything else is an `isError` tool result. */
export const isProtocolError = (error: RpcError): boolean => error.code === -32602 || error.code === -32603;

/**
 * Runs one tool call through the key's tier policy and then the same dispatcher as `/rpc`, and writes its
 * McpCallLog row. Order: arguments (caller binding filled, schema), scope and tool patterns, the call counted
 * against call limits, approval by pattern (not on replay: a dry run first), dispatch. The money the call moves is
 * counted where it moves (src/mcp/spending.ts): over a limit the call rolls back and answers SpendingLimit; over the
 * approval threshold it rolls back and is parked, after a dry run, with the amount measured. The log records what
 * the call moved. A call refused here, before the dispatch (its arguments, the key's policy, or a failed dry run),
 * writes its audited method's denial row as a refusal in the dispatcher does (`refuse`); a parked call is no denial.
 */
export async function runTool(deps: McpDeps, inv: Invocation): Promise<ToolOutcome> {
  const now = deps.runtime.config.clock();
  const em = inv.within ? inv.within.fork({ keepTransactionContext: true }) : deps.runtime.orm.em.fork();
  const keyId = inv.caller.apiKeyId ?? "";
  const log = (status: CallStatus, message: string, spent: Spent = NOTHING, approval = inv.approvalId) =>
    deps.callLog.write(inv.within ? em : null, {
      apiKeyId: keyId,
      userId: inv.caller.userId,
      toolName: inv.toolName,
      argumentsSummary: summarizeArguments(inv.args),
      amount: spent.amount,
      amountEur: spent.eur,
      status,
      errorMessage: message,
      approvalId: approval,
      at: now,
    });
  const metrics = metricsOf(deps.runtime);
  const fail = async (error: RpcError, status: CallStatus, spent: Spent = NOTHING) => {
    await log(status, error.message, spent);
    metrics?.toolCall(inv.toolName, status === "rejected" ? "refused" : "error");
    if (isProtocolError(error)) throw error;
    return { kind: "error", error } as const;
  };
  const failWith = (err: unknown, spent: Spent) => {
    const error = asRpcError(deps, err, inv);
    return fail(error, isKeyRefusal(error) ? "rejected" : "error", spent);
  };

  const args = inv.args ?? {};
  const isObject = typeof args === "object" && !Array.isArray(args);
  const params: Record<string, unknown> = isObject ? { ...(args as Record<string, unknown>) } : {};
  fillCallerBinding(inv.entry, inv, params);
  /**
   * A refusal before the dispatch: the audited method's row with allowed false (the dispatcher's writer, nothing
   * for other methods), written outside any call transaction, then the log row. Nothing else was written.
   */
  const refuse = async (error: RpcError, status: CallStatus, spent: Spent = NOTHING) => {
    await auditRefusal(inv.entry, toolContext(deps, em, inv, null), params, error);
    return fail(error, status, spent);
  };

  if (!isObject) return refuse(RpcError.invalidParams("arguments must be an object"), "error");
  if (!inv.entry.mcp.agentTool) {
    const message = `${inv.toolName} signs up, signs in or manages credentials: no agent key may call it`;
    return refuse(RpcError.forbidden("ApiKeyError", "ScopeDenied", message), "rejected");
  }
  jsonTextArgs(inv.entry, params);
  if (!inv.entry.validateParams(params)) {
    const errors = (inv.entry.validateParams.errors ?? []).map((e) => ({
      path: e.instancePath || "/",
      message: e.message,
    }));
    return refuse(
      RpcError.invalidParams(`${errors[0]?.path ?? "/"} ${errors[0]?.message ?? "invalid"}`, errors),
      "error",
    );
  }

  // A key gone since it authenticated leaves no caller, and a call without one writes no audit row (as on /rpc).
  const policy = await deps.policies.get(em, keyId, inv.approvalId !== null);
  if (!policy) return fail(RpcError.unauthenticated("KeyRevoked", "API key no longer exists"), "rejected");
  const denied = toolRefusal(policy, inv.toolName, inv.entry.mcp.readOnly);
  if (denied) return refuse(keyRefusal(denied), "rejected");

  // The call counts against call limits whatever becomes of it (a parked request too); its amount where it moves.
  const refused = await consumeUsage(em, keyId, usageWindows(policy, 0, now), now);
  if (refused) return refuse(keyRefusal(refused), "rejected");

  const park = async (reason: (eur: number) => string): Promise<ToolOutcome> => {
    const dry = await dryRun(deps, inv, policy, params, now);
    // The dry run's own denial row was rolled back with it: the call's failure is written here.
    if (dry.error instanceof RpcError) {
      const error = asRpcError(deps, dry.error, inv);
      return refuse(error, isKeyRefusal(error) ? "rejected" : "error", dry.spent);
    }
    if (dry.error !== null) return failWith(dry.error, dry.spent);
    const bound = aloneRefusal(policy, dry.spent.eur ?? 0, now);
    if (bound) return refuse(keyRefusal(bound), "rejected", dry.spent);
    const pending = await createApproval(deps, em, inv, {
      reason: reason(dry.spent.eur ?? 0),
      amount: dry.spent.amount,
      now,
    });
    await log("success", "", dry.spent, pending.approval_id);
    metrics?.toolCall(inv.toolName, "approval_required");
    return { kind: "pending", pending };
  };

  const pattern = inv.approvalId ? null : patternReason(policy, inv.toolName);
  if (pattern) return park(() => pattern);

  const meter = new KeySpending(deps.fx, em, policy, now, meterMode(inv));
  const ctx = toolContext(deps, em, inv, meter);
  try {
    if (inv.signal?.aborted) throw RpcError.internal();
    const result = await dispatch(inv.entry, ctx, params);
    await log("success", "", await meter.spent());
    metrics?.toolCall(inv.toolName, "ok");
    return { kind: "result", result };
  } catch (err) {
    // Over the threshold the call stopped where the money moved and rolled back; the dry run measures all of it.
    if (meter.approvalNeeded)
      return park((eur) => thresholdReason(policy, eur) ?? "amount over the approval threshold");
    return failWith(err, await meter.spent());
  }
}

const NOTHING: Spent = { amount: 0, eur: null };

/** Generic record params that are JSON object text on the wire (API.md) and objects in the tool's schema. */
const JSON_TEXT_PARAMS: Readonly<Record<string, string>> = { find: "query", set: "data" };

/** An agent's object for such a param, written as the text the method takes (text given as text passes as is). */
function jsonTextArgs(entry: Entry, params: Record<string, unknown>): void {
  if (entry.kind !== "crud") return;
  const param = JSON_TEXT_PARAMS[entry.name.slice(entry.name.indexOf(".") + 1)];
  const value = param ? params[param] : undefined;
  if (param && value !== null && typeof value === "object" && !Array.isArray(value)) {
    params[param] = JSON.stringify(value);
  }
}

function meterMode(inv: Invocation): MeterMode {
  return inv.approvalId ? { kind: "replay", approvedAmount: inv.approvedAmount ?? 0 } : { kind: "call" };
}
