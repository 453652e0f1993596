import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import { McpCallLogEntity, type McpCallLogRow } from "../../generated/entities.ts";
import type { TimePosition } from "./time-cursor.ts";

/** The McpCallLog table: one append-only row per MCP tool call. */

/** One multi-row native insert (the group-commit writer batches rows of concurrent calls into it). */
export async function insertCallLogRows(em: EntityManager, rows: McpCallLogRow[]): Promise<void> {
  await em.insertMany(McpCallLogEntity, rows);
}

export interface CallLogFilter {
  userId?: string | undefined;
  apiKeyId?: string | undefined;
}

/** Newest first, rows after `after` (keyset), at most `limit`. */
export function listCallLog(
  em: EntityManager,
  filter: CallLogFilter,
  after: TimePosition | null,
  limit: number,
): Promise<McpCallLogRow[]> {
  const where: FilterQuery<McpCallLogRow>[] = [];
  if (filter.userId !== undefined) where.push({ user_id: filter.userId });
  if (filter.apiKeyId !== undefined) where.push({ api_key_id: filter.apiKeyId });
  if (after) {
    where.push({ $or: [{ created_at: { $lt: after.at } }, { created_at: after.at, sid: { $lt: after.sid } }] });
  }
  return em.find(McpCallLogEntity, where.length > 0 ? { $and: where } : {}, {
    orderBy: [{ created_at: "desc" }, { sid: "desc" }],
    limit,
    disableIdentityMap: true,
  });
}
