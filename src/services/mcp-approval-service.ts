import type { McpApprovalServiceHandlers } from "../../generated/handlers/index.ts";
import { approveApproval, loadApproval, rejectApproval } from "../mcp/approval-decisions.ts";
import { expireApprovals, toApprovalResult } from "../mcp/approval-store.ts";
import { listApprovals } from "../repos/mcp-approvals.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";

const LIST_LIMIT = 500;

/**
 * McpApprovalService: the approval queue of MCP calls (seed 000 McpApproval state table). Reads work with a
 * session or an API key; decisions need a session (x-auth), so an agent can never approve its own calls.
 */
export const mcpApprovalService: McpApprovalServiceHandlers<RpcContext> = {
  async listPending(ctx) {
    const filter = { userId: requireCaller(ctx).userId, status: "pending", openAt: ctx.now() } as const;
    const rows = await listApprovals(ctx.em, filter, null, LIST_LIMIT);
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
    const rows = await listApprovals(ctx.em, { status, userId: user_id }, null, LIST_LIMIT);
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
