import type { EntityManager } from "@mikro-orm/postgresql";
import type { Caller, RequestInfo } from "../rpc/context.ts";
import type { Entry } from "../rpc/dispatcher.ts";

/** One tool call to run: the key's owner as caller, the tool, and the arguments as the agent sent them. */
/** Where a tool call came from: `/mcp`, `/rpc` (or a domain endpoint), or an approval decision replaying it. */
export type CallEndpoint = "mcp" | "rpc" | "approval";

export interface Invocation {
  caller: Caller;
  /** Named in the context of the call's audit rows. */
  endpoint: CallEndpoint;
  request: RequestInfo;
  toolName: string;
  entry: Entry;
  args: unknown;
  /** Set when an approved call is replayed: the approval step is skipped and the log row points at it. */
  approvalId: string | null;
  /** With `approvalId`: the amount the approval was asked for; the replay may move no more. */
  approvedAmount?: number;
  signal?: AbortSignal;
  /**
   * The entity manager of the call this one runs inside (an approved call replayed by the approval decision):
   * the replay's writes, its usage counters and its log row go into that call's transaction (a savepoint), never
   * onto another connection (PGlite has one, held by that transaction).
   */
  within?: EntityManager;
}
