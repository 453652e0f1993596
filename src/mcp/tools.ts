import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Entry } from "../rpc/dispatcher.ts";

/** One entry of generated/mcp-tools.json: an MCP tool plus the registry method it dispatches to. */
export interface ManifestTool extends Tool {
  method: string;
}

export interface CatalogTool {
  tool: Tool;
  entry: Entry;
}

const MANIFEST = join(import.meta.dirname, "..", "..", "generated", "mcp-tools.json");

let manifest: ManifestTool[] | null = null;

/** The generated manifest is 1.5 MB of JSON: parsed once per process, shared by every app instance. */
function loadManifest(): ManifestTool[] {
  manifest ??= JSON.parse(readFileSync(MANIFEST, "utf8")) as ManifestTool[];
  return manifest;
}

/**
 * The tool list, built once: every registry method as a tool, the `tools/list` results for `readwrite` and `read`
 * keys (a read key sees only read-only tools), and the lookup from tool name to registry entry.
 */
export class ToolCatalog {
  readonly byName = new Map<string, CatalogTool>();
  readonly listAll: { tools: Tool[] };
  readonly listReadOnly: { tools: Tool[] };

  constructor(registry: Map<string, Entry>, extra: CatalogTool[] = []) {
    const all: Tool[] = [];
    for (const item of loadManifest()) {
      const entry = registry.get(item.method);
      if (!entry) throw new Error(`MCP manifest names ${item.method}, which the registry does not have`);
      const { method: _method, ...tool } = item;
      all.push(tool);
      this.byName.set(tool.name, { tool, entry });
    }
    for (const item of extra) {
      all.push(item.tool);
      this.byName.set(item.tool.name, item);
    }
    this.listAll = { tools: all };
    this.listReadOnly = { tools: all.filter((tool) => tool.annotations?.readOnlyHint === true) };
  }

  list(scope: string): { tools: Tool[] } {
    return scope === "read" ? this.listReadOnly : this.listAll;
  }
}
