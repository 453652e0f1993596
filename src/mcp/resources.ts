import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ReadResourceResult, Resource } from "@modelcontextprotocol/sdk/types.js";
import { openrpcText } from "../http/documents.ts";
import { PROJECT_ROOT } from "../project-root.ts";

/**
 * MCP resources (issue 32 item 12): the contract an agent may read without a tool call. The served OpenRPC
 * documents (`freezone://openrpc/all.json` and one per domain, with the instance's `servers` URL, as
 * `/api/v1/openrpc.json` serves them) and the generated reference pages (`freezone://reference/<page>.md`, from
 * docs/reference/). All public documents: any key with MCP access may list and read them; nothing else is a resource.
 */

const SCHEME = "freezone://";
const REFERENCE = join(PROJECT_ROOT, "docs", "reference");

/**
 * MCP's "resource not found" (the specification's -32002, data naming the URI). Not the SDK's McpError, whose
 * message carries an "MCP error -32002:" prefix: the SDK answers a thrown error's code, message and data as they are.
 */
class ResourceNotFound extends Error {
  readonly code = -32002;
  constructor(readonly data: { uri: string }) {
    super("Resource not found");
  }
}

interface Entry {
  resource: Resource;
  text: () => string;
}

function markdownPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? markdownPages(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
    )
    .sort();
}

/** The first `# ` heading of a page, else its path. */
function titleOf(text: string, fallback: string): string {
  const heading = /^# (.+)$/m.exec(text);
  return heading?.[1]?.trim() || fallback;
}

export class ResourceCatalog {
  private readonly entries = new Map<string, Entry>();

  /** `openrpc`: the served documents by scope ("all" and each domain), as the runtime holds them. */
  constructor(openrpc: Map<string, unknown>, referenceDir = REFERENCE) {
    for (const [scope, doc] of openrpc) {
      if (typeof doc !== "object" || doc === null) continue;
      const uri = `${SCHEME}openrpc/${scope}.json`;
      const whole = scope === "all";
      this.entries.set(uri, {
        resource: {
          uri,
          name: whole ? "openrpc-all" : `openrpc-${scope}`,
          title: whole ? "OpenRPC: every method" : `OpenRPC: the ${scope} domain`,
          description: whole
            ? "The whole JSON-RPC contract: methods, params, results, errors and x- extensions."
            : `The JSON-RPC contract of the ${scope} domain's methods.`,
          mimeType: "application/json",
        },
        text: () => openrpcText(doc),
      });
    }
    for (const file of markdownPages(referenceDir)) {
      const page = relative(referenceDir, file).split("\\").join("/");
      const text = readFileSync(file, "utf8");
      const uri = `${SCHEME}reference/${page}`;
      this.entries.set(uri, {
        resource: {
          uri,
          name: `reference-${page.replace(/\.md$/, "").replaceAll("/", "-")}`,
          title: titleOf(text, page),
          mimeType: "text/markdown",
          size: Buffer.byteLength(text, "utf8"),
        },
        text: () => text,
      });
    }
  }

  list(): { resources: Resource[] } {
    return { resources: [...this.entries.values()].map((e) => e.resource) };
  }

  read(uri: string): ReadResourceResult {
    const entry = this.entries.get(uri);
    if (!entry) throw new ResourceNotFound({ uri });
    return { contents: [{ uri, mimeType: entry.resource.mimeType, text: entry.text() }] };
  }
}
