import type { EntityManager } from "@mikro-orm/postgresql";
import type { McpApprovalRow } from "../../generated/entities.ts";
import type { McpApprovalResult } from "../../generated/types.ts";
import { isSealed, openSecret, sealSecret } from "../auth/secret-box.ts";
import type { Config } from "../config.ts";
import { sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { writeAudit } from "../repos/audit-log.ts";
import { expirePending, insertApproval } from "../repos/mcp-approvals.ts";
import type { RpcContext } from "../rpc/context.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { currentValues } from "./approval-current.ts";
import { tellOwner } from "./approval-notice.ts";
import { type McpDeps, mcpDepsFor } from "./deps.ts";
import type { Invocation } from "./invocation.ts";
import { redactSecrets, summarizeArguments } from "./sanitize.ts";

/** What a tool call that needs approval answers (API.md "MCP"; the tool's outputSchema admits it). */
export interface PendingApproval {
  status: "pending_approval";
  approval_id: string;
  reason: string;
  expires_at: string;
}

/**
 * Stores the call owned by the key's owner, at once (a native insert on the tool call's entity manager: the request
 * is answered `pending_approval` only once it is stored). The arguments are replayed, so they are kept whole but
 * sealed with the deployment's key, and without the account password (x-password): a password never rests in an
 * approval; the owner gives it again when approving (docs/decisions.md "Passwords never rest in an approval").
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
    arguments: sealSecret(deps.runtime.config.encryptionKey, JSON.stringify(storedArguments(inv))),
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
  const names = await keyNamesOf(em, inv.caller.apiKeyId ? [inv.caller.apiKeyId] : []);
  await tellOwner(deps, em, inv, {
    sid,
    reason: what.reason,
    amount: what.amount,
    expiresAt: expires,
    now: what.now,
    keyName: names.get(inv.caller.apiKeyId ?? "") ?? null,
  });
  return { status: "pending_approval", approval_id: sid, reason: what.reason, expires_at: expires.toISOString() };
}

function storedArguments(inv: Invocation): unknown {
  const args = inv.args;
  if (!inv.entry.password || args === null || typeof args !== "object" || Array.isArray(args)) return args ?? {};
  const { [inv.entry.password]: _dropped, ...rest } = args as Record<string, unknown>;
  return rest;
}

/** The stored arguments, opened (rows stored before sealing hold plaintext JSON). */
export function approvalArguments(config: Config, row: McpApprovalRow): unknown {
  return JSON.parse(isSealed(row.arguments) ? openSecret(config.encryptionKey, row.arguments) : row.arguments);
}

/** The password param of the approval's method (x-password), or null when it takes none. */
export function approvalPasswordParam(registry: Runtime["registry"], row: McpApprovalRow): string | null {
  return registry.get(row.rpc_method ?? "")?.password ?? null;
}

/**
 * Who reads an approval: its owner's session (arguments and result whole), its owner through an API key (every
 * secret field of the arguments redacted) or an administrator (neither).
 */
export type ApprovalReader = "owner" | "owner_key" | "admin";

export function readerOf(ctx: RpcContext, admin: boolean): ApprovalReader {
  if (admin) return "admin";
  return ctx.caller?.apiKeyId ? "owner_key" : "owner";
}

/**
 * Failures of an approved call that approving again may get past (stored as `<variant or code>: <message>`):
 * a busy or unavailable database, a server shutting down, a provider unavailable, a rate limit, a key still
 * running, an internal error. Every other failure is a refusal that would come back the same.
 */
const TRANSIENT = new Set([
  "DatabaseBusy",
  "DatabaseUnavailable",
  "ShuttingDown",
  "ProviderUnavailable",
  "RateLimited",
  "IdempotencyKeyInUse",
  "-32603",
]);

export function isRetryable(row: Pick<McpApprovalRow, "status" | "execution_error">): boolean {
  if (row.status !== "approved" || row.execution_error === null) return false;
  return TRANSIENT.has(row.execution_error.split(":")[0] ?? "");
}

/** The names the owners gave these keys (one query), by key id. */
export async function keyNamesOf(em: EntityManager, keyIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(keyIds.filter(Boolean))];
  if (ids.length === 0) return new Map();
  const found = await sqlRows<{ sid: string; name: string }>(
    em,
    `select sid, name from "api_key" where sid in (${ids.map(() => "?").join(", ")})`,
    ids,
  );
  return new Map(found.map((k) => [k.sid, k.name]));
}

/**
 * What an approval's result reads besides its row: its arguments opened once, the keys' names, and the owner's
 * view of what a call changes.
 */
export interface ApprovalExtras {
  args: Map<string, unknown>;
  names: Map<string, string>;
  current: Map<string, string | null>;
}

export async function approvalExtras(
  ctx: RpcContext,
  rows: McpApprovalRow[],
  reader: ApprovalReader,
): Promise<ApprovalExtras> {
  const args = new Map<string, unknown>();
  for (const row of rows) {
    try {
      args.set(row.sid, approvalArguments(ctx.config, row));
    } catch {
      // An unreadable row (altered, or sealed under another key) still lists; it cannot be replayed.
    }
  }
  const current = new Map<string, string | null>();
  if (reader !== "admin") {
    const registry = mcpDepsFor(ctx.config).runtime.registry;
    for (const row of rows) current.set(row.sid, await currentValues(ctx.em, registry, row, args.get(row.sid)));
  }
  return {
    args,
    names: await keyNamesOf(
      ctx.em,
      rows.map((r) => r.api_key_id),
    ),
    current,
  };
}

/** One approval as a result for `reader`, with what it reads besides its row. */
export async function approvalResult(
  ctx: RpcContext,
  row: McpApprovalRow,
  reader: ApprovalReader,
): Promise<McpApprovalResult> {
  return toApprovalResult(ctx, row, reader, await approvalExtras(ctx, [row], reader));
}

/** The approval as a result for `reader` (ApprovalReader); `extras`: approvalExtras of the rows. */
export function toApprovalResult(
  ctx: RpcContext,
  row: McpApprovalRow,
  reader: ApprovalReader,
  extras: ApprovalExtras,
): McpApprovalResult {
  const args = extras.args.get(row.sid) ?? {};
  const shown = reader === "owner" ? args : redactSecrets(args);
  return {
    sid: row.sid,
    user_id: row.user_id,
    api_key_id: row.api_key_id,
    api_key_name: extras.names.get(row.api_key_id) ?? null,
    tool_title: mcpDepsFor(ctx.config).catalog.titleOf(row.tool_name),
    current: extras.current.get(row.sid) ?? null,
    retryable: isRetryable(row),
    tool_name: row.tool_name,
    rpc_method: row.rpc_method,
    arguments: reader === "admin" ? null : JSON.stringify(shown),
    arguments_summary: summarizeArguments(args),
    needs_password: approvalPasswordParam(mcpDepsFor(ctx.config).runtime.registry, row) !== null,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    requested_at: row.requested_at.toISOString(),
    decided_at: row.decided_at?.toISOString() ?? null,
    expires_at: row.expires_at.toISOString(),
    result_json: reader === "admin" ? null : row.result_json,
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
