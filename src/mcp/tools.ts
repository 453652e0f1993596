import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { PROJECT_ROOT } from "../project-root.ts";
import { decodeCursor, encodeCursor } from "../repos/paging.ts";
import type { Entry } from "../rpc/dispatcher.ts";
import { type SearchHit, ToolIndex } from "./discovery-index.ts";
import { DISCOVERY_SYNONYMS } from "./discovery-synonyms.ts";
import { globMatch, type KeyPolicy, toolRefusal } from "./policy.ts";

/** One entry of generated/mcp-tools.json: an MCP tool plus the registry method it dispatches to. */
export interface ManifestTool extends Tool {
  method: string;
}

export interface CatalogTool {
  tool: Tool;
  entry: Entry;
}

/** One page of `tools/list` (MCP pagination: `nextCursor` while more follow). */
export interface ToolPage {
  tools: Tool[];
  nextCursor?: string;
}

/** A `tools/list` page stays under 300 KB; pages are cut at 280 KB of tools, leaving room for the envelope. */
export const TOOL_PAGE_BYTES = 280 * 1024;
const CACHED_PAGES = 256;

const MANIFEST = join(PROJECT_ROOT, "generated", "mcp-tools.json");

let manifest: ManifestTool[] | null = null;

/** The generated manifest is 3 MB of JSON: parsed once per process, shared by every app instance. */
function loadManifest(): ManifestTool[] {
  manifest ??= JSON.parse(readFileSync(MANIFEST, "utf8")) as ManifestTool[];
  return manifest;
}

/**
 * What no API key can ever call: administrator, session-only and webhook methods, internal ones, and those that are
 * no agent tool (`x-mcp.agentTool: false`: signing up, signing in, managing credentials).
 */
export function keyMayCall(entry: Entry): boolean {
  return (
    entry.mcp.agentTool &&
    !entry.internal &&
    entry.auth !== "admin" &&
    entry.auth !== "session" &&
    entry.auth !== "webhook"
  );
}

/** Where a key's tools/list shows a tool (the registry's `mcp.listing`, from codegen). */
type ToolListing = Entry["mcp"]["listing"];

/**
 * Whether a pattern asks for a tool listed only on request (a generic record read): it matches the tool and names
 * something beyond the `freezone_` prefix (`freezone_resident_*`, `freezone_*_find`); `*` and `freezone_*` ask for
 * nothing in particular.
 */
function asksFor(patterns: string[], name: string): boolean {
  return patterns.some((p) => p.replace(/[*?]/g, "").replace(/^freezone_/, "") !== "" && globMatch(p, name));
}

/** Whether `tools/list` (and the tool search) shows the tool to a key with this policy. */
function shownTo(policy: KeyPolicy, t: { tool: Tool; readOnly: boolean; listing: ToolListing }): boolean {
  if (t.listing === "never") return false;
  if (t.listing === "asked" && !asksFor(policy.allowedPatterns, t.tool.name)) return false;
  return toolRefusal(policy, t.tool.name, t.readOnly) === null;
}

interface Listed {
  tool: Tool;
  readOnly: boolean;
  listing: ToolListing;
  /** A generated record operation (`kind: "crud"`), ranked below domain operations by the tool search. */
  generic: boolean;
  bytes: number;
}

/** A manifest tool without its `method`, and its size in a page: made once per process. */
const stripped = new WeakMap<ManifestTool, { tool: Tool; bytes: number }>();

function listedOf(item: ManifestTool): { tool: Tool; bytes: number } {
  let made = stripped.get(item);
  if (!made) {
    const { method: _method, ...tool } = item;
    made = { tool, bytes: JSON.stringify(tool).length + 1 };
    stripped.set(item, made);
  }
  return made;
}

/** The tools a key may be shown, in order, with the pages made for each policy shape and their JSON. */
class Listing {
  private readonly pages = new Map<string, ToolPage>();
  private readonly json = new WeakMap<object, string>();
  private searchIndex: ToolIndex | null = null;

  constructor(readonly listable: Listed[]) {}

  /** The search index of discovery mode over these tools: built on first use, once per listing. */
  get index(): ToolIndex {
    this.searchIndex ??= new ToolIndex(this.listable, DISCOVERY_SYNONYMS);
    return this.searchIndex;
  }

  /** Same tools, same order, same read-only flags: the pages of one are the pages of the other. */
  sameAs(listable: Listed[]): boolean {
    return (
      listable.length === this.listable.length &&
      listable.every(
        (t, i) =>
          t.tool === this.listable[i]?.tool &&
          t.readOnly === this.listable[i]?.readOnly &&
          t.listing === this.listable[i]?.listing,
      )
    );
  }

  page(policy: KeyPolicy, start: number): ToolPage {
    const key = [policy.scope, policy.allowedPatterns.join(","), policy.blockedPatterns.join(","), start].join("|");
    const cached = this.pages.get(key);
    if (cached) return cached;
    const page = this.build(policy, start);
    if (this.pages.size >= CACHED_PAGES) this.pages.clear();
    this.pages.set(key, page);
    return page;
  }

  pageJson(result: object): string | undefined {
    return this.json.get(result);
  }

  private build(policy: KeyPolicy, start: number): ToolPage {
    const callable = this.listable.filter((t) => shownTo(policy, t));
    const tools: Tool[] = [];
    let bytes = 0;
    let next = start;
    for (; next < callable.length; next++) {
      const item = callable[next];
      if (!item || (tools.length > 0 && bytes + item.bytes > TOOL_PAGE_BYTES)) break;
      tools.push(item.tool);
      bytes += item.bytes;
    }
    const page: ToolPage = next < callable.length ? { tools, nextCursor: encodeCursor([String(next)]) } : { tools };
    this.json.set(page, JSON.stringify(page));
    return page;
  }
}

/** The listing of the manifest's tools, shared by every app of the process whose registry lists the same ones. */
let sharedListing: Listing | null = null;

/**
 * The tool list: every registry method as a tool (the lookup from tool name to registry entry), and `tools/list`
 * fitted to each key: only the tools its policy lets it call (scope, allowed and blocked patterns), never admin,
 * session, webhook or internal methods, in pages under 300 KB. Pages are made once per policy shape and
 * serialized once, per process: every app built on the generated registry shares them (tests start hundreds).
 */
export class ToolCatalog {
  readonly byName = new Map<string, CatalogTool>();
  private readonly listing: Listing;

  constructor(registry: Map<string, Entry>, extra: CatalogTool[] = []) {
    const listable: Listed[] = [];
    const add = (item: CatalogTool, bytes: () => number) => {
      this.byName.set(item.tool.name, item);
      if (!keyMayCall(item.entry)) return;
      listable.push({
        tool: item.tool,
        readOnly: item.entry.mcp.readOnly,
        listing: item.entry.mcp.listing,
        generic: item.entry.kind === "crud",
        bytes: bytes(),
      });
    };
    for (const item of loadManifest()) {
      const entry = registry.get(item.method);
      if (!entry) throw new Error(`MCP manifest names ${item.method}, which the registry does not have`);
      const made = listedOf(item);
      add({ tool: made.tool, entry }, () => made.bytes);
    }
    for (const item of extra) add(item, () => JSON.stringify(item.tool).length + 1);
    if (extra.length > 0) {
      this.listing = new Listing(listable);
    } else {
      if (!sharedListing?.sameAs(listable)) sharedListing = new Listing(listable);
      this.listing = sharedListing;
    }
  }

  /** The page of tools this policy may call that starts at `cursor`; null for a cursor this server did not make. */
  list(policy: KeyPolicy, cursor: string | undefined): ToolPage | null {
    let position: string[] | null;
    try {
      position = decodeCursor(cursor, 1, () => new Error("invalid cursor"));
    } catch {
      return null; // not a cursor of ours: the caller answers -32602
    }
    const start = position ? Number(position[0]) : 0;
    if (!Number.isSafeInteger(start) || start < 0) return null;
    return this.listing.page(policy, start);
  }

  /** The tools this policy may call that best match `query` (discovery mode's freezone_search_tools). */
  search(policy: KeyPolicy, query: string, limit: number): SearchHit[] {
    return this.listing.index.search(query, limit, (tool, readOnly) =>
      shownTo(policy, { tool, readOnly, listing: this.byName.get(tool.name)?.entry.mcp.listing ?? "never" }),
    );
  }

  /** A tool's title (its operation's summary); the tool name for one the catalogue no longer has. */
  titleOf(name: string): string {
    return this.byName.get(name)?.tool.title ?? name;
  }

  /** Whether any API key may call the tool (not an administrator, session-only, webhook or internal method). */
  keyCallable(name: string): boolean {
    const found = this.byName.get(name);
    return found !== undefined && keyMayCall(found.entry);
  }

  /** A page's JSON text, made once per page object. */
  pageJson(result: object): string | undefined {
    return this.listing.pageJson(result);
  }
}
