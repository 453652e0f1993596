import type { McpCallLogServiceHandlers } from "../../generated/handlers/index.ts";
import type { McpCallLogResult } from "../../generated/types.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

const callLogError = errorsFor("McpCallLogService", "McpCallLogError");

interface LogRow {
  sid: string;
  api_key_id: string;
  user_id: string;
  tool_name: string;
  arguments_summary: string;
  amount: number;
  amount_eur: number | null;
  result_status: McpCallLogResult["result_status"];
  error_message: string;
  approval_id: string | null;
  created_at: string;
}

const DEFAULT_LIMIT = 100;

/** Keyset cursor over (created_at, sid), newest first: opaque to clients. */
function encodeCursor(row: LogRow): string {
  return Buffer.from(`${new Date(row.created_at).toISOString()}|${row.sid}`).toString("base64url");
}

function decodeCursor(cursor: string): [Date, string] {
  const [at, sid] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const when = new Date(at ?? "");
  if (!sid || Number.isNaN(when.getTime())) throw callLogError("InvalidInput", "unknown cursor");
  return [when, sid];
}

const toResult = (row: LogRow): McpCallLogResult => ({
  sid: row.sid,
  api_key_id: row.api_key_id,
  user_id: row.user_id,
  tool_name: row.tool_name,
  arguments_summary: row.arguments_summary,
  amount: Number(row.amount),
  amount_eur: row.amount_eur === null ? null : Number(row.amount_eur),
  result_status: row.result_status,
  error_message: row.error_message,
  approval_id: row.approval_id,
  created_at: new Date(row.created_at).toISOString(),
});

async function page(
  ctx: RpcContext,
  filters: Record<string, string | undefined>,
  limit = DEFAULT_LIMIT,
  cursor?: string,
) {
  const where: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    params.push(value);
  }
  if (cursor) {
    where.push("(created_at, sid) < (?, ?)");
    params.push(...decodeCursor(cursor));
  }
  const rows = await ctx.em.execute<LogRow[]>(
    `select * from mcp_call_log ${where.length ? `where ${where.join(" and ")}` : ""}
      order by created_at desc, sid desc limit ${limit + 1}`,
    params,
  );
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items: items.map(toResult), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** McpCallLogService: one row per MCP tool call (written by src/mcp); owners read theirs, administrators all. */
export const mcpCallLogService: McpCallLogServiceHandlers<RpcContext> = {
  async list(ctx, { limit, cursor }) {
    return page(ctx, { user_id: ctx.caller?.userId }, limit, cursor);
  },
  async adminList(ctx, { user_id, api_key_id, limit, cursor }) {
    return page(ctx, { user_id, api_key_id }, limit, cursor);
  },
};
