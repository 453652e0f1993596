import type { EntityManager } from "@mikro-orm/postgresql";
import type { McpApprovalResult } from "../../generated/types.ts";
import { uuidv7 } from "../domain/ids.ts";
import { writeAudit } from "../repos/audit-log.ts";
import type { McpDeps } from "./deps.ts";
import type { Invocation } from "./execute.ts";
import { summarizeArguments } from "./sanitize.ts";

/** What a tool call that needs approval answers (API.md "MCP"; the tool's outputSchema admits it). */
export interface PendingApproval {
  status: "pending_approval";
  approval_id: string;
  reason: string;
  expires_at: string;
}

export interface ApprovalRow {
  sid: string;
  user_id: string;
  api_key_id: string;
  tool_name: string;
  rpc_method: string | null;
  arguments: string;
  amount: number;
  reason: string;
  status: McpApprovalResult["status"];
  requested_at: Date;
  decided_at: Date | null;
  expires_at: Date;
  result_json: string | null;
  decision_reason: string | null;
  execution_error: string | null;
  decided_by: string | null;
}

/** Stores the full call (arguments not redacted: they are replayed) owned by the key's owner. */
export async function createApproval(
  deps: McpDeps,
  inv: Invocation,
  what: { reason: string; amount: number; now: Date },
): Promise<PendingApproval> {
  const em = deps.runtime.orm.em.fork();
  const sid = uuidv7(what.now);
  const expires = new Date(what.now.getTime() + deps.approvalTtlS * 1000);
  em.create("McpApproval", {
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
  await em.flush();
  return { status: "pending_approval", approval_id: sid, reason: what.reason, expires_at: expires.toISOString() };
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The approval as a result: arguments and result_json go to the owner only (null in administrator reads). */
export function toApprovalResult(row: ApprovalRow, forOwner: boolean): McpApprovalResult {
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
    amount: Number(row.amount),
    reason: row.reason,
    status: row.status,
    requested_at: iso(row.requested_at) as string,
    decided_at: iso(row.decided_at),
    expires_at: iso(row.expires_at) as string,
    result_json: forOwner ? row.result_json : null,
    decision_reason: row.decision_reason,
    execution_error: row.execution_error,
    decided_by: row.decided_by,
  };
}

export async function findApproval(em: EntityManager, sid: string): Promise<ApprovalRow | null> {
  const rows = await em.execute<ApprovalRow[]>(`select * from mcp_approval where sid = ?`, [sid]);
  return rows[0] ?? null;
}

/**
 * Moves pending approvals past expires_at to `expired` (all of them, or one), one mcp_approval_expired audit row
 * each, subject the owner. The conditional update makes a concurrent decision and a second sweep no-ops.
 */
export async function expireApprovals(em: EntityManager, now: Date, onlySid?: string): Promise<string[]> {
  const rows = await em.execute<{ sid: string; user_id: string }[]>(
    `update mcp_approval set status = 'expired', decided_at = ?, updated_at = ?
      where status = 'pending' and expires_at <= ?${onlySid ? " and sid = ?" : ""}
      returning sid, user_id`,
    onlySid ? [now, now, now, onlySid] : [now, now, now],
  );
  for (const row of rows) {
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
  return rows.map((r) => r.sid);
}
