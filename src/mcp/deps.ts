import type { Config } from "../config.ts";
import type { FxProvider } from "../integrations/fx/index.ts";
import type { Runtime } from "../rpc/runtime.ts";
import type { CallLogWriter } from "./call-log.ts";
import type { PolicyCache } from "./policy-cache.ts";
import type { ToolCatalog } from "./tools.ts";

/** What MCP calls need beyond one request: built once per app by `createMcpEndpoint`. */
export interface McpDeps {
  runtime: Runtime;
  catalog: ToolCatalog;
  fx: FxProvider;
  callLog: CallLogWriter;
  policies: PolicyCache;
  /** How long an approval request stays open (seed: one hour). */
  approvalTtlS: number;
}

/**
 * Service handlers (the approval service replays stored calls) receive only an RpcContext; they find their app's
 * MCP dependencies through its Config object, which is unique per app.
 */
const byConfig = new WeakMap<Config, McpDeps>();

export function registerMcpDeps(deps: McpDeps): void {
  byConfig.set(deps.runtime.config, deps);
}

export function mcpDepsFor(config: Config): McpDeps {
  const deps = byConfig.get(config);
  if (!deps) throw new Error("the MCP endpoint of this app is not started");
  return deps;
}
