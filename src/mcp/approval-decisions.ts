import type { EntityManager } from "@mikro-orm/postgresql";
import type { McpApprovalRow } from "../../generated/entities.ts";
import type { McpApprovalResult } from "../../generated/types.ts";
import { keyOwnerCaller } from "../auth/api-keys.ts";
import { findKeyWithOwnerById } from "../repos/api-keys.ts";
import { countAuditRows, writeAudit } from "../repos/audit-log.ts";
import {
  claimPending,
  findApproval,
  markExecuted,
  markExecutionError,
  rejectPending,
  retakeApproved,
} from "../repos/mcp-approvals.ts";
import { unaudited } from "../rpc/audit-marks.ts";
import { writeSurviving } from "../rpc/call-context.ts";
import type { Caller, RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { checkAccountPassword } from "../rpc/password-check.ts";
import {
  approvalArguments,
  approvalPasswordParam,
  approvalResult,
  expireApprovals,
  readerOf,
} from "./approval-store.ts";
import { mcpDepsFor } from "./deps.ts";
import { runTool, type ToolOutcome } from "./execute.ts";

const TYPE = "McpApprovalError";

/**
 * Claim marker in execution_error while an approved call runs: a second approve at the same moment finds the
 * claim and is refused, so nothing runs twice. A claim older than CLAIM_STALE_MS (a crashed server) is retaken.
 */
export const RUNNING = "[running]";
const CLAIM_STALE_MS = 5 * 60 * 1000;

export async function loadApproval(ctx: RpcContext, sid: string, admin: boolean): Promise<McpApprovalRow> {
  const row = await findApproval(ctx.em, sid);
  // Another user's approval is NotFound: no existence leak.
  if (!row || (!admin && row.user_id !== ctx.caller?.userId)) throw RpcError.notFound(TYPE, "approval");
  return row;
}

/** The key that asked, as a caller, by its id: still active, unexpired, with MCP scope, owner not suspended. */
async function keyCaller(em: EntityManager, keyId: string, now: Date): Promise<Caller | RpcError> {
  const row = await findKeyWithOwnerById(em, keyId);
  if (!row?.is_active) return RpcError.unauthenticated("KeyRevoked", "the API key that asked was revoked");
  if (row.expires_at !== null && row.expires_at.getTime() <= now.getTime()) {
    return RpcError.unauthenticated("KeyExpired", "the API key that asked has expired");
  }
  if (row.is_suspended) return RpcError.forbidden("AuthError", "Suspended", "account suspended");
  if (row.mcp_scope === null) return RpcError.app("AuthError", "NoMcpAccess");
  if (row.user_id === null) return RpcError.unauthenticated("KeyRevoked", "the API key that asked has no owner");
  return keyOwnerCaller({ ...row, user_id: row.user_id });
}

/** Takes the right to run the approved call: pending -> approved (the decision), or a retry of `approved`. */
async function claim(ctx: RpcContext, row: McpApprovalRow, now: Date): Promise<void> {
  const by = ctx.caller?.userId ?? null;
  if (row.status === "pending") {
    const moved = await claimPending(ctx.em, row.sid, by, RUNNING, now);
    if (moved === 0) throw RpcError.app(TYPE, "InvalidState", "the approval was decided meanwhile");
    return;
  }
  if (row.status === "approved") {
    const stale = new Date(now.getTime() - CLAIM_STALE_MS);
    const retaken = await retakeApproved(ctx.em, row.sid, RUNNING, stale, now);
    if (retaken === 0) throw RpcError.app(TYPE, "InvalidState", "the approved call is running");
    return;
  }
  throw RpcError.app(TYPE, "InvalidState", `the approval is ${row.status}`);
}

/** The password the approver gave, under the param name of the approval's method; null when it takes none. */
type Given = { param: string; password: string } | null;

function withPassword(args: unknown, given: Given): unknown {
  if (!given || args === null || typeof args !== "object" || Array.isArray(args)) return args;
  return { ...(args as Record<string, unknown>), [given.param]: given.password };
}

/**
 * A call that takes the account password (x-password) had it dropped before the approval was stored: the owner
 * gives it again, checked as the method would check it, before anything is decided. An administrator cannot.
 */
async function passwordFor(ctx: RpcContext, row: McpApprovalRow, admin: boolean, password: unknown): Promise<Given> {
  const param = approvalPasswordParam(mcpDepsFor(ctx.config).runtime.registry, row);
  if (param === null) return null;
  if (admin) {
    throw RpcError.forbidden(
      TYPE,
      "PasswordRequired",
      "the call needs its owner's password: only the owner can approve it",
    );
  }
  await checkAccountPassword(ctx, TYPE, password);
  return { param, password: password as string };
}

/** Replays the stored call as the key that asked (its current policy, approval aside) and records the outcome. */
async function execute(ctx: RpcContext, row: McpApprovalRow, now: Date, password: Given): Promise<void> {
  const deps = mcpDepsFor(ctx.config);
  const entry = deps.runtime.registry.get(row.rpc_method ?? "") ?? deps.catalog.byName.get(row.tool_name)?.entry;
  let outcome: ToolOutcome;
  const caller = await keyCaller(ctx.em, row.api_key_id, now);
  if (caller instanceof RpcError) outcome = { kind: "error", error: caller };
  else if (!entry) outcome = { kind: "error", error: RpcError.app(TYPE, "NotFound", `unknown tool ${row.tool_name}`) };
  else {
    try {
      const args = withPassword(approvalArguments(ctx.config, row), password);
      const inv = {
        caller,
        endpoint: "approval" as const,
        request: ctx.request,
        toolName: row.tool_name,
        entry,
        args,
        approvalId: row.sid,
        approvedAmount: row.amount,
        within: ctx.em,
      };
      outcome = await runTool(deps, inv);
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      outcome = { kind: "error", error: err };
    }
  }
  const ok = outcome.kind === "result";
  const attempt = (await countAuditRows(ctx.em, "mcp_approval_executed", row.sid)) + 1;
  if (outcome.kind === "result") {
    await markExecuted(ctx.em, row.sid, JSON.stringify(outcome.result), now);
  } else {
    const error = outcome.kind === "error" ? outcome.error : RpcError.internal();
    await markExecutionError(ctx.em, row.sid, `${error.data?.variant ?? error.code}: ${error.message}`, now);
  }
  await writeAudit(
    ctx.em,
    {
      subjectId: row.user_id,
      action: "mcp_approval_executed",
      targetRef: row.sid,
      targetType: "mcp_approval",
      allowed: ok,
      context: {
        tool: row.tool_name,
        decided_by: ctx.caller?.userId ?? null,
        attempt,
        ...(ok ? {} : { error: "dispatch failed" }),
      },
    },
    now,
  );
}

/** approve / admin_approve: decide (or retry an approved call that failed) and run the stored call. */
export async function approveApproval(
  ctx: RpcContext,
  sid: string,
  admin: boolean,
  password?: string,
): Promise<McpApprovalResult> {
  const now = ctx.now();
  const row = await loadApproval(ctx, sid, admin);
  if (row.status === "pending" && row.expires_at.getTime() <= now.getTime()) {
    await writeSurviving(ctx, (em) => expireApprovals(em, now, row.sid));
    throw RpcError.app(TYPE, "Expired", "the approval request has expired");
  }
  const given = await passwordFor(ctx, row, admin, password);
  await claim(ctx, row, now);
  await execute(ctx, row, now, given);
  const result = await approvalResult(ctx, await loadApproval(ctx, sid, admin), readerOf(ctx, admin));
  // A retry of an approved call resumes without a second decision: no second mcp_approval_approved row (seed 000).
  return row.status === "approved" ? unaudited(result) : result;
}

/** reject / admin_reject: pending -> rejected with the reason; the call never runs. */
export async function rejectApproval(
  ctx: RpcContext,
  sid: string,
  reason: string,
  admin: boolean,
): Promise<McpApprovalResult> {
  const now = ctx.now();
  const row = await loadApproval(ctx, sid, admin);
  const moved = await rejectPending(ctx.em, row.sid, reason, ctx.caller?.userId ?? null, now);
  if (moved === 0) throw RpcError.app(TYPE, "InvalidState", `the approval is ${row.status}`);
  return approvalResult(ctx, await loadApproval(ctx, sid, admin), readerOf(ctx, admin));
}
