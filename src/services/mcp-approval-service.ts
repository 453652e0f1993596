import type { McpApprovalServiceHandlers } from "../../generated/handlers/index.ts";
import { approveApproval, loadApproval, rejectApproval } from "../mcp/approval-decisions.ts";
import { type ApprovalRow, expireApprovals, toApprovalResult } from "../mcp/approval-store.ts";
import type { RpcContext } from "../rpc/context.ts";

const LIST_LIMIT = 500;

/**
 * McpApprovalService: the approval queue of MCP calls (seed 000 McpApproval state table). Reads work with a
 * session or an API key; decisions need a session (x-auth), so an agent can never approve its own calls.
 */
export const mcpApprovalService: McpApprovalServiceHandlers<RpcContext> = {
  async listPending(ctx) {
    const rows = await ctx.em.execute<ApprovalRow[]>(
      `select * from mcp_approval where user_id = ? and status = 'pending' and expires_at > ?
        order by requested_at desc, sid desc limit ${LIST_LIMIT}`,
      [ctx.caller?.userId, ctx.now()],
    );
    return { items: rows.map((row) => toApprovalResult(row, true)) };
  },
  async get(ctx, { approval_id }) {
    return toApprovalResult(await loadApproval(ctx, approval_id, false), true);
  },
  async approve(ctx, { approval_id }) {
    return approveApproval(ctx, approval_id, false);
  },
  async reject(ctx, { approval_id, reason }) {
    return rejectApproval(ctx, approval_id, reason, false);
  },
  async adminList(ctx, { status, user_id }) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (status) {
      where.push("status = ?");
      params.push(status);
    }
    if (user_id) {
      where.push("user_id = ?");
      params.push(user_id);
    }
    const rows = await ctx.em.execute<ApprovalRow[]>(
      `select * from mcp_approval ${where.length ? `where ${where.join(" and ")}` : ""}
        order by requested_at desc, sid desc limit ${LIST_LIMIT}`,
      params,
    );
    return { items: rows.map((row) => toApprovalResult(row, false)) };
  },
  async adminGet(ctx, { approval_id }) {
    return toApprovalResult(await loadApproval(ctx, approval_id, true), false);
  },
  async adminApprove(ctx, { approval_id }) {
    return approveApproval(ctx, approval_id, true);
  },
  async adminReject(ctx, { approval_id, reason }) {
    return rejectApproval(ctx, approval_id, reason, true);
  },
  async expireStale(ctx) {
    const ids = await expireApprovals(ctx.em, ctx.now());
    return { expired_count: ids.length, approval_ids: ids };
  },
};
