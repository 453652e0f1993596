import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";

// Imports in src/ run one way (issue 12, item 4): no module reaches back into one that imports it, type-only
// imports included (they still tie the modules' designs together).

const SRC = resolve(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "migrations" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function localImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g)].map((m) => m[1] ?? "");
  return specifiers.map((s) => resolve(dirname(file), s)).filter((path) => path.startsWith(SRC));
}

/** Every cycle's files, each cycle reported once, from a depth-first walk. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).map((f) => relative(SRC, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe("module graph of src/", () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, localImports(file)]));

  test("the walk sees the whole tree", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(join(SRC, "app/runtime.ts"))).toContain(join(SRC, "services/index.ts"));
  });

  test("has no import cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  test("the runtime type and request ids live below the app (src/rpc/runtime.ts)", () => {
    const reachingUp = [...graph].filter(
      ([file, imports]) =>
        !file.startsWith(join(SRC, "app")) && imports.some((i) => i.startsWith(join(SRC, "app/runtime"))),
    );
    expect(reachingUp.map(([file]) => relative(SRC, file))).toEqual([]);
  });
});
