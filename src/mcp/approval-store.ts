import type { EntityManager } from "@mikro-orm/postgresql";
import type { McpApprovalRow } from "../../generated/entities.ts";
import type { McpApprovalResult } from "../../generated/types.ts";
import { uuidv7 } from "../domain/ids.ts";
import { writeAudit } from "../repos/audit-log.ts";
import { expirePending, insertApproval } from "../repos/mcp-approvals.ts";
import type { McpDeps } from "./deps.ts";
import type { Invocation } from "./invocation.ts";
import { summarizeArguments } from "./sanitize.ts";

/** What a tool call that needs approval answers (API.md "MCP"; the tool's outputSchema admits it). */
export interface PendingApproval {
  status: "pending_approval";
  approval_id: string;
  reason: string;
  expires_at: string;
}

/**
 * Stores the full call (arguments not redacted: they are replayed) owned by the key's owner, at once (a native
 * insert on the tool call's entity manager: the request is answered `pending_approval` only once it is stored).
 */
export async function createApproval(
  deps: McpDeps,
  em: EntityManager,
  inv: Invocation,
  what: { reason: string; amount: number; now: Date },
): Promise<PendingApproval> {
  const sid = uuidv7(what.now);
  const expires = new Date(what.now.getTime() + deps.approvalTtlS * 1000);
  await insertApproval(em, {
    sid,
    user_id: inv.caller.userId,
    api_key_id: inv.caller.apiKeyId ?? "",
    tool_name: inv.toolName,
    rpc_method: inv.entry.name,
    arguments: JSON.stringify(inv.args ?? {}),
    amount: what.amount,
    reason: what.reason,
    status: "pending",
    requested_at: what.now,
    decided_at: null,
    expires_at: expires,
    result_json: null,
    decision_reason: null,
    execution_error: null,
    decided_by: null,
    created_at: what.now,
    updated_at: what.now,
  });
  return { status: "pending_approval", approval_id: sid, reason: what.reason, expires_at: expires.toISOString() };
}

/** The approval as a result: arguments and result_json go to the owner only (null in administrator reads). */
export function toApprovalResult(row: McpApprovalRow, forOwner: boolean): McpApprovalResult {
  let summary: string;
  try {
    summary = summarizeArguments(JSON.parse(row.arguments));
  } catch {
    summary = "{}";
  }
  return {
    sid: row.sid,
    user_id: row.user_id,
    api_key_id: row.api_key_id,
    tool_name: row.tool_name,
    rpc_method: row.rpc_method,
    arguments: forOwner ? row.arguments : null,
    arguments_summary: summary,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    requested_at: row.requested_at.toISOString(),
    decided_at: row.decided_at?.toISOString() ?? null,
    expires_at: row.expires_at.toISOString(),
    result_json: forOwner ? row.result_json : null,
    decision_reason: row.decision_reason,
    execution_error: row.execution_error,
    decided_by: row.decided_by,
  };
}

/**
 * Moves pending approvals past expires_at to `expired` (all of them, or one), one mcp_approval_expired audit row
 * each, subject the owner. Returns the sids it moved.
 */
export async function expireApprovals(em: EntityManager, now: Date, onlySid?: string): Promise<string[]> {
  const moved = await expirePending(em, now, onlySid);
  for (const row of moved) {
    await writeAudit(
      em,
      {
        subjectId: row.user_id,
        action: "mcp_approval_expired",
        targetRef: row.sid,
        targetType: "mcp_approval",
        allowed: true,
        context: { by: "expiry sweep" },
      },
      now,
    );
  }
  return moved.map((r) => r.sid);
}
