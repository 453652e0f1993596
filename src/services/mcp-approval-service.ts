import type { McpApprovalServiceHandlers } from "../../generated/handlers/index.ts";
import { approveApproval, loadApproval, rejectApproval } from "../mcp/approval-decisions.ts";
import { approvalExtras, approvalResult, expireApprovals, readerOf, toApprovalResult } from "../mcp/approval-store.ts";
import { type ApprovalFilter, listApprovals } from "../repos/mcp-approvals.ts";
import { cursorPage } from "../repos/paging.ts";
import { decodeTimeCursor, timeCursorOf } from "../repos/time-cursor.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

const approvalError = errorsFor("McpApprovalService", "McpApprovalError");

/** The queue grows without bound: pages by opaque cursor (API.md "Results"). */
const DEFAULT_LIMIT = 50;

/** One page of approvals, newest request first; arguments and result_json only for their owner (readerOf). */
async function approvalPage(
  ctx: RpcContext,
  filter: ApprovalFilter,
  page: { limit?: number | undefined; cursor?: string | undefined },
  admin: boolean,
) {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const after = decodeTimeCursor(page.cursor, () => approvalError("InvalidInput", "unknown cursor"));
  const rows = await listApprovals(ctx.em, filter, after, limit + 1);
  const extras = await approvalExtras(ctx, rows.slice(0, limit), readerOf(ctx, admin));
  return cursorPage(
    rows,
    limit,
    (row) => timeCursorOf(row.requested_at, row.sid),
    (row) => toApprovalResult(ctx, row, readerOf(ctx, admin), extras),
  );
}

/**
 * McpApprovalService: the approval queue of MCP calls (seed 000 McpApproval state table). Reads work with a
 * session or an API key; decisions need a session (x-auth), so an agent can never approve its own calls.
 */
export const mcpApprovalService: McpApprovalServiceHandlers<RpcContext> = {
  async listPending(ctx, page) {
    const filter = { userId: requireCaller(ctx).userId, status: "pending", openAt: ctx.now() } as const;
    return approvalPage(ctx, filter, page, false);
  },
  async get(ctx, { approval_id }) {
    return approvalResult(ctx, await loadApproval(ctx, approval_id, false), readerOf(ctx, false));
  },
  async approve(ctx, { approval_id, password }) {
    return approveApproval(ctx, approval_id, false, password);
  },
  async reject(ctx, { approval_id, reason }) {
    return rejectApproval(ctx, approval_id, reason, false);
  },
  async adminList(ctx, { status, user_id, ...page }) {
    return approvalPage(ctx, { status, userId: user_id }, page, true);
  },
  async adminGet(ctx, { approval_id }) {
    return approvalResult(ctx, await loadApproval(ctx, approval_id, true), "admin");
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
