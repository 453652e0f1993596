import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import { McpApprovalEntity, type McpApprovalRow } from "../../generated/entities.ts";
import type { McpApprovalStatus } from "../../generated/types.ts";
import { sqlRows } from "../db/sql.ts";
import type { TimePosition } from "./time-cursor.ts";

/**
 * The McpApproval table: MCP calls waiting for their owner's decision. Every state move is a conditional native
 * update whose affected count decides a race, so rows are read as snapshots outside the identity map (a read after
 * a move must see it, not a cached copy).
 */

export async function insertApproval(em: EntityManager, row: McpApprovalRow): Promise<void> {
  await em.insert(McpApprovalEntity, row);
}

export function findApproval(em: EntityManager, sid: string): Promise<McpApprovalRow | null> {
  return em.findOne(McpApprovalEntity, { sid }, { disableIdentityMap: true });
}

export interface ApprovalFilter {
  userId?: string | undefined;
  status?: McpApprovalStatus | undefined;
  /** Only rows whose expires_at is later (the pending queue leaves out what has lapsed but is not swept yet). */
  openAt?: Date | undefined;
}

/** Newest request first, rows after `after` (keyset), at most `limit`. */
export function listApprovals(
  em: EntityManager,
  filter: ApprovalFilter,
  after: TimePosition | null,
  limit: number,
): Promise<McpApprovalRow[]> {
  const where: FilterQuery<McpApprovalRow>[] = [];
  if (filter.userId !== undefined) where.push({ user_id: filter.userId });
  if (filter.status !== undefined) where.push({ status: filter.status });
  if (filter.openAt !== undefined) where.push({ expires_at: { $gt: filter.openAt } });
  if (after) {
    where.push({ $or: [{ requested_at: { $lt: after.at } }, { requested_at: after.at, sid: { $lt: after.sid } }] });
  }
  return em.find(McpApprovalEntity, where.length > 0 ? { $and: where } : {}, {
    orderBy: [{ requested_at: "desc" }, { sid: "desc" }],
    limit,
    disableIdentityMap: true,
  });
}

/** pending -> approved by `by`, unless decided meanwhile or lapsed. The claim marker goes in execution_error. */
export function claimPending(em: EntityManager, sid: string, by: string | null, marker: string, now: Date) {
  return em.nativeUpdate(
    McpApprovalEntity,
    { sid, status: "pending", expires_at: { $gt: now } },
    { status: "approved", decided_at: now, decided_by: by, execution_error: marker, updated_at: now },
  );
}

/** Retakes an approved call for a retry, unless another claim newer than `staleBefore` holds it. */
export function retakeApproved(em: EntityManager, sid: string, marker: string, staleBefore: Date, now: Date) {
  return em.nativeUpdate(
    McpApprovalEntity,
    {
      sid,
      status: "approved",
      $or: [{ execution_error: null }, { execution_error: { $ne: marker } }, { updated_at: { $lt: staleBefore } }],
    },
    { execution_error: marker, updated_at: now },
  );
}

export async function markExecuted(em: EntityManager, sid: string, resultJson: string, now: Date): Promise<void> {
  await em.nativeUpdate(
    McpApprovalEntity,
    { sid },
    { status: "approved_executed", result_json: resultJson, execution_error: null, updated_at: now },
  );
}

export async function markExecutionError(em: EntityManager, sid: string, error: string, now: Date): Promise<void> {
  await em.nativeUpdate(McpApprovalEntity, { sid }, { execution_error: error, updated_at: now });
}

/** pending -> rejected with the reason; 0 when it was no longer pending. */
export function rejectPending(em: EntityManager, sid: string, reason: string, by: string | null, now: Date) {
  return em.nativeUpdate(
    McpApprovalEntity,
    { sid, status: "pending" },
    { status: "rejected", decision_reason: reason, decided_at: now, decided_by: by, updated_at: now },
  );
}

/**
 * pending rows past expires_at -> expired (all of them, or one); the rows it moved. The condition makes a
 * concurrent decision and a second sweep no-ops.
 */
export function expirePending(
  em: EntityManager,
  now: Date,
  onlySid?: string,
): Promise<Pick<McpApprovalRow, "sid" | "user_id">[]> {
  return sqlRows<Pick<McpApprovalRow, "sid" | "user_id">>(
    em,
    `update mcp_approval set status = 'expired', decided_at = ?, updated_at = ?
      where status = 'pending' and expires_at <= ?${onlySid ? " and sid = ?" : ""}
      returning sid, user_id`,
    onlySid ? [now, now, now, onlySid] : [now, now, now],
  );
}

/** Every pending approval of a key -> rejected with `reason` and no deciding user (the system); the rows moved. */
export function rejectPendingOfKey(
  em: EntityManager,
  keyId: string,
  reason: string,
  now: Date,
): Promise<Pick<McpApprovalRow, "sid" | "user_id">[]> {
  return sqlRows<Pick<McpApprovalRow, "sid" | "user_id">>(
    em,
    `update mcp_approval set status = 'rejected', decision_reason = ?, decided_at = ?, decided_by = null, updated_at = ?
      where api_key_id = ? and status = 'pending'
      returning sid, user_id`,
    [reason, now, now, keyId],
  );
}

/** Approvals still waiting for a decision at `now` (pending and not lapsed), for the operations gauge. */
export function countOpenApprovals(em: EntityManager, now: Date): Promise<number> {
  return em.count(McpApprovalEntity, { status: "pending", expires_at: { $gt: now } });
}
