import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findNodeAtLocation, type Node, parseTree, type Segment } from "jsonc-parser";
import type { Diagnostic } from "./diagnostics.ts";

/**
 * Line and column beside the JSON pointer (issue 32 item 3): each diagnostic's pointer is looked up in its file's
 * syntax tree (jsonc-parser, VS Code's JSON parser) and the position of the member it names is given, 1-based. A
 * pointer into a member that does not exist (a required key left out) names its nearest existing parent.
 */

/** 1-based line and column of an offset in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line += 1;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

function segments(pointer: string): Segment[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((p) => (/^(0|[1-9][0-9]*)$/.test(p) ? Number(p) : p));
}

/** The member a pointer names, or its nearest existing parent; the key's position for an object member. */
function offsetOf(tree: Node, pointer: string): number {
  const path = segments(pointer);
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(tree, path.slice(0, n));
    if (!node) continue;
    const key = node.parent?.type === "property" ? node.parent.children?.[0] : undefined;
    return (key ?? node).offset;
  }
  return tree.offset;
}

/** The diagnostics with line and column filled in where the file can be read and parsed. */
export function locate(root: string, diagnostics: Diagnostic[]): Diagnostic[] {
  const trees = new Map<string, { text: string; tree: Node | undefined } | null>();
  const fileTree = (file: string) => {
    if (!trees.has(file)) {
      try {
        const text = readFileSync(join(root, file), "utf8");
        trees.set(file, { text, tree: parseTree(text) });
      } catch {
        trees.set(file, null);
      }
    }
    return trees.get(file) ?? null;
  };
  return diagnostics.map((d) => {
    if (d.line !== undefined) return d;
    const found = fileTree(d.file);
    if (!found?.tree) return d;
    return { ...d, ...lineColumn(found.text, offsetOf(found.tree, d.pointer)) };
  });
}
