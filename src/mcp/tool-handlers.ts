import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { RpcError } from "../rpc/errors.ts";
import type { McpAuth } from "./auth.ts";
import type { McpDeps } from "./deps.ts";
import { discoveryList, isMetaTool, runMetaTool } from "./discovery.ts";
import { runTool } from "./execute.ts";
import { summarizeArguments } from "./sanitize.ts";
import type { ToolHandlers } from "./server-host.ts";

const RESULT_JSON = Symbol("result JSON");

/** A successful call: the result as structuredContent (checked by SDK clients against outputSchema) and as text. */
function success(value: unknown): CallToolResult {
  const text = JSON.stringify(value);
  const result = { content: [{ type: "text" as const, text }], structuredContent: value as Record<string, unknown> };
  // The value is serialized once: its text is also the structuredContent's JSON (see `resultJson`).
  if (text !== undefined) {
    const json = `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`;
    Object.defineProperty(result, RESULT_JSON, { value: json });
  }
  return result;
}

/**
 * The JSON text of a result `success` made, equal to `JSON.stringify(result)`; undefined for any other object (a
 * copy, as the SDK's validating path makes, has none).
 */
export function resultJson(result: object): string | undefined {
  return (result as { [RESULT_JSON]?: string })[RESULT_JSON];
}

/**
 * Business failures and policy refusals: `isError` with `{ type, variant, message }` as text and no
 * structuredContent (SDK clients would check it against the tool's outputSchema).
 */
export function failure(error: RpcError): CallToolResult {
  const body = {
    type: error.data?.type ?? "RpcError",
    variant: error.data?.variant ?? String(error.code),
    message: error.message,
  };
  const details = { ...(error.data ?? {}) };
  delete details["type"];
  delete details["variant"];
  const text = JSON.stringify(Object.keys(details).length > 0 ? { ...body, details } : body);
  return { isError: true, content: [{ type: "text", text }] };
}

/** tools/list and tools/call of the SDK Server, bound to one app's MCP dependencies. */
export function toolHandlers(deps: McpDeps): ToolHandlers {
  /** A catalogue tool by name: the one path of a direct tools/call and of discovery mode's freezone_call_tool. */
  async function callTool(auth: McpAuth, name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const found = deps.catalog.byName.get(name);
    if (!found) {
      await deps.callLog.write(null, {
        apiKeyId: auth.caller.apiKeyId ?? "",
        userId: auth.caller.userId,
        toolName: name.slice(0, 200),
        argumentsSummary: summarizeArguments(args),
        amount: 0,
        amountEur: null,
        status: "error",
        errorMessage: "unknown tool",
        approvalId: null,
        at: deps.runtime.config.clock(),
      });
      throw RpcError.invalidParams(`unknown tool ${name}`);
    }
    const outcome = await runTool(deps, {
      caller: auth.caller,
      endpoint: "mcp",
      request: auth.request,
      toolName: name,
      entry: found.entry,
      args,
      approvalId: null,
      signal,
    });
    if (outcome.kind === "result") return success(outcome.result);
    if (outcome.kind === "pending") return success(outcome.pending);
    return failure(outcome.error);
  }

  const policyOf = (auth: McpAuth) => deps.policies.get(deps.runtime.orm.em.fork(), auth.caller.apiKeyId ?? "");

  return {
    async list(auth, cursor) {
      const policy = await policyOf(auth);
      if (!policy) return { tools: [] };
      const page = policy.discoveryMode ? discoveryList(cursor) : deps.catalog.list(policy, cursor);
      if (!page) throw new McpError(ErrorCode.InvalidParams, "Invalid params: cursor is not valid");
      return page;
    },
    async call(auth: McpAuth, name, args, signal) {
      // Meta-tools exist for keys in discovery mode only; for any other key their names stay unknown tools.
      if (isMetaTool(name)) {
        const policy = await policyOf(auth);
        if (policy?.discoveryMode) {
          const direct = (tool: string, toolArgs: unknown) => callTool(auth, tool, toolArgs, signal);
          return runMetaTool(deps.catalog, policy, name, args, direct, failure);
        }
      }
      return callTool(auth, name, args, signal);
    },
  };
}
