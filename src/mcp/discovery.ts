import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { RpcError } from "../rpc/errors.ts";
import { type KeyPolicy, toolRefusal } from "./policy.ts";
import { keyRefusal } from "./spending.ts";
import type { ToolCatalog, ToolPage } from "./tools.ts";

/**
 * Discovery mode (issue 19, ApiKey.mcp_discovery_mode): `tools/list` answers these three meta-tools instead of
 * the catalogue, for agents that cannot hold hundreds of tools. Search and describe read the catalogue only (no
 * data, no call log row, no counter); call runs the named tool through the very handler a direct `tools/call`
 * takes, so policy, limits, approvals and the call log see the real tool.
 */
export const SEARCH_TOOL = "freezone_search_tools";
export const DESCRIBE_TOOL = "freezone_describe_tool";
export const CALL_TOOL = "freezone_call_tool";

export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 50;

const hitSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    title: { type: "string" },
    summary: { type: "string" },
    read_only: { type: "boolean" },
    score: { type: "number" },
  },
  required: ["name", "title", "summary", "read_only", "score"],
} as const;

export const META_TOOLS: Tool[] = [
  {
    name: SEARCH_TOOL,
    title: "Search the tools this key can call",
    description:
      "Search the tools this key can call\n\nRanked keyword search over the names, titles, descriptions and parameter names of the tools this API key may call; answers compact entries (name, title, one-line summary, read-only flag, score), best first. Describe a tool with freezone_describe_tool, call it with freezone_call_tool.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 500, description: "What you want to do, in words." },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: SEARCH_LIMIT_MAX,
          description: `How many results at most (default ${SEARCH_LIMIT_DEFAULT}).`,
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { results: { type: "array", items: hitSchema } },
      required: ["results"],
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: DESCRIBE_TOOL,
    title: "Describe one tool",
    description:
      "Describe one tool\n\nThe full entry of one tool this API key may call: its description, input schema, output schema and annotations, as tools/list would list it.",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string", minLength: 1, maxLength: 200, description: "The tool's name." } },
      required: ["name"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        name: { type: "string" },
        title: { type: "string" },
        description: { type: "string" },
        inputSchema: { type: "object" },
        outputSchema: { type: "object" },
        annotations: { type: "object" },
      },
      required: ["name", "inputSchema"],
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: CALL_TOOL,
    title: "Call one tool by name",
    description:
      "Call one tool by name\n\nCalls a tool this API key may call with the given arguments, exactly as a direct tools/call would: the key's scope, patterns, limits and approval rules apply, and the answer is the tool's own answer (a pending approval included).",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 200, description: "The tool's name." },
        arguments: { type: "object", description: "The tool's arguments (see freezone_describe_tool)." },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
];

const META_NAMES = new Set(META_TOOLS.map((t) => t.name));

export const isMetaTool = (name: string): boolean => META_NAMES.has(name);

/** tools/list of a key in discovery mode: the meta-tools, one page (a cursor was never handed out). */
export function discoveryList(cursor: string | undefined): ToolPage | null {
  return cursor === undefined ? { tools: META_TOOLS } : null;
}

/** Runs a catalogue tool as a direct tools/call does (tool-handlers.ts). */
export type DirectCall = (name: string, args: unknown) => Promise<CallToolResult>;

function argsObject(args: unknown): Record<string, unknown> {
  if (args === undefined) return {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw RpcError.invalidParams("arguments must be an object");
  }
  return args as Record<string, unknown>;
}

function stringArg(args: Record<string, unknown>, name: string, max: number): string {
  const value = args[name];
  if (typeof value !== "string" || value.length === 0 || value.length > max) {
    throw RpcError.invalidParams(`/${name} must be a string of 1 to ${max} characters`);
  }
  return value;
}

function limitArg(args: Record<string, unknown>): number {
  const value = args["limit"];
  if (value === undefined) return SEARCH_LIMIT_DEFAULT;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > SEARCH_LIMIT_MAX) {
    throw RpcError.invalidParams(`/limit must be an integer from 1 to ${SEARCH_LIMIT_MAX}`);
  }
  return value;
}

function onlyKnown(args: Record<string, unknown>, known: string[]): void {
  const extra = Object.keys(args).find((k) => !known.includes(k));
  if (extra !== undefined) throw RpcError.invalidParams(`/ must NOT have additional property ${extra.slice(0, 60)}`);
}

/**
 * One meta-tool call of a key in discovery mode. `refused` answers a tool the key may not call the way a direct
 * call of it is answered (the policy refusal as an `isError` result); an unknown name is a JSON-RPC -32602, as a
 * direct call of an unknown tool.
 */
export async function runMetaTool(
  catalog: ToolCatalog,
  policy: KeyPolicy,
  name: string,
  rawArgs: unknown,
  direct: DirectCall,
  refused: (error: RpcError) => CallToolResult,
): Promise<CallToolResult> {
  const args = argsObject(rawArgs);
  if (name === CALL_TOOL) {
    onlyKnown(args, ["name", "arguments"]);
    return direct(stringArg(args, "name", 200), args["arguments"]);
  }
  if (name === SEARCH_TOOL) {
    onlyKnown(args, ["query", "limit"]);
    const results = catalog.search(policy, stringArg(args, "query", 500), limitArg(args));
    return structured({ results });
  }
  onlyKnown(args, ["name"]);
  const toolName = stringArg(args, "name", 200);
  const found = catalog.byName.get(toolName);
  if (!found || !catalog.keyCallable(toolName)) throw RpcError.invalidParams(`unknown tool ${toolName}`);
  const denied = toolRefusal(policy, toolName, found.entry.mcp.readOnly);
  if (denied) return refused(keyRefusal(denied));
  return structured(found.tool as unknown as Record<string, unknown>);
}

function structured(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}
