import type { Config } from "../config.ts";
import type { Caller, RequestInfo } from "../rpc/context.ts";
import type { Entry } from "../rpc/dispatcher.ts";
import { RpcError } from "../rpc/errors.ts";
import { mcpDepsFor } from "./deps.ts";
import { runTool } from "./execute.ts";

/** A key with an `mcp_scope` is an agent's key (the assistant's key too): its whole tier policy binds it everywhere. */
export function isAgentKey(caller: Caller | null): caller is Caller {
  return caller !== null && caller.via === "api_key" && caller.mcpScope !== null;
}

/**
 * A call of an agent key on `/rpc` or a domain endpoint, under the same policy as on `/mcp` (API.md "Agent keys
 * and script keys"): scope (a `read` key calls read-only methods only), allowed and blocked patterns on the method's
 * tool name, the per-transaction amount, call and spending limits on the same counters, and approval rules. A
 * call that needs approval creates the McpApproval as on `/mcp` and is answered `-32010 ApprovalRequired` with
 * its id, reason and expiry, so result schemas stay as they are. Each call writes its McpCallLog row.
 */
export async function runAgentCall(
  config: Config,
  call: { entry: Entry; caller: Caller; request: RequestInfo; params: unknown },
): Promise<unknown> {
  const { entry, caller, request, params } = call;
  const deps = mcpDepsFor(config);
  const outcome = await runTool(deps, {
    caller,
    endpoint: "rpc",
    request,
    toolName: entry.mcp.name,
    entry,
    args: params ?? {},
    approvalId: null,
  });
  if (outcome.kind === "result") return outcome.result;
  if (outcome.kind === "error") throw outcome.error;
  const { approval_id, reason, expires_at } = outcome.pending;
  throw RpcError.app("ApiKeyError", "ApprovalRequired", "this call waits for the approval of the key's owner", {
    approval_id,
    reason,
    expires_at,
  });
}
