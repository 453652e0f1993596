import type { McpCallLogRow } from "../../generated/entities.ts";
import type { McpCallLogServiceHandlers } from "../../generated/handlers/index.ts";
import type { McpCallLogResult } from "../../generated/types.ts";
import { type CallLogFilter, listCallLog } from "../repos/mcp-call-log.ts";
import { cursorPage } from "../repos/paging.ts";
import { decodeTimeCursor, timeCursorOf } from "../repos/time-cursor.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

const callLogError = errorsFor("McpCallLogService", "McpCallLogError");

/** The spec's default page (its schema bounds `limit` to 1-500). */
const DEFAULT_LIMIT = 100;

const toResult = (row: McpCallLogRow): McpCallLogResult => ({
  sid: row.sid,
  api_key_id: row.api_key_id,
  user_id: row.user_id,
  tool_name: row.tool_name,
  arguments_summary: row.arguments_summary,
  amount: row.amount,
  amount_eur: row.amount_eur,
  result_status: row.result_status,
  error_message: row.error_message,
  approval_id: row.approval_id,
  created_at: row.created_at.toISOString(),
});

/** One page, newest first, keyed by (created_at, sid). */
async function page(ctx: RpcContext, filter: CallLogFilter, limit = DEFAULT_LIMIT, cursor?: string) {
  const after = decodeTimeCursor(cursor, () => callLogError("InvalidInput", "unknown cursor"));
  const rows = await listCallLog(ctx.em, filter, after, limit + 1);
  return cursorPage(rows, limit, (row) => timeCursorOf(row.created_at, row.sid), toResult);
}

/** McpCallLogService: one row per MCP tool call (written by src/mcp); owners read theirs, administrators all. */
export const mcpCallLogService: McpCallLogServiceHandlers<RpcContext> = {
  async list(ctx, { limit, cursor }) {
    return page(ctx, { userId: requireCaller(ctx).userId }, limit, cursor);
  },
  async adminList(ctx, { user_id, api_key_id, limit, cursor }) {
    return page(ctx, { userId: user_id, apiKeyId: api_key_id }, limit, cursor);
  },
};
