import type { MethodEntry } from "../../generated/registry.ts";

type McpPolicy = MethodEntry<unknown>["mcp"];

/** The x-mcp policy of a method a test builds by hand: a listed agent tool, not destructive, no amount. */
export function toolPolicy(name: string, readOnly: boolean, overrides: Partial<McpPolicy> = {}): McpPolicy {
  return {
    name,
    readOnly,
    destructive: false,
    idempotent: false,
    amountParam: null,
    agentTool: true,
    listing: "always",
    ...overrides,
  };
}
