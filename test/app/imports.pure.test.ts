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

  /**
   * What each layer of src/ may not import: `domain` is pure business rules over generated types; `repos` (data
   * access) sits below `rpc` (the call: context, dispatcher, policy), which sits below the services, the app and
   * MCP; `http` (credentials, bodies) and `metrics` serve both the app and MCP, which never import the app. The
   * MCP approval service replays tools through src/mcp/, so services may import mcp. `jobs` (docs/jobs.md) lists
   * the sweeps of the services and is started by the app; services open their transactions with jobs/context.ts.
   * `auth` is credential infrastructure under the services. generated/ is open to all.
   */
  const LAYERS: Record<string, { mayNotImport: string[] }> = {
    domain: {
      mayNotImport: [
        "app",
        "auth",
        "contracts",
        "crud",
        "db",
        "documents",
        "integrations",
        "mcp",
        "repos",
        "rpc",
        "services",
        "config.ts",
      ],
    },
    repos: { mayNotImport: ["services", "app", "mcp", "rpc"] },
    services: { mayNotImport: ["app"] },
    jobs: { mayNotImport: ["app", "mcp"] },
    mcp: { mayNotImport: ["app"] },
    http: { mayNotImport: ["services", "app", "mcp"] },
    metrics: { mayNotImport: ["services", "app", "mcp"] },
    rpc: { mayNotImport: ["services", "app", "mcp"] },
    // Credential infrastructure (passwords, tokens, sessions, API keys and their cache, attempt limits); the
    // AuthService use cases (login, reset, verification, second factor) are src/services/auth-service/.
    auth: { mayNotImport: ["services", "app", "mcp"] },
  };

  test.each(Object.keys(LAYERS))("%s/ imports only the layers below it", (layer) => {
    const forbidden = LAYERS[layer]!.mayNotImport.map((f) => join(SRC, f));
    const crossings = [...graph].flatMap(([file, imports]) =>
      file.startsWith(join(SRC, layer, "/"))
        ? imports
            .filter((i) => forbidden.some((f) => i === f || i.startsWith(`${f}/`)))
            .map((i) => `${relative(SRC, file)} -> ${relative(SRC, i)}`)
        : [],
    );
    expect(crossings).toEqual([]);
  });

  test("the runtime type and request ids live below the app (src/rpc/runtime.ts)", () => {
    const reachingUp = [...graph].filter(
      ([file, imports]) =>
        !file.startsWith(join(SRC, "app")) && imports.some((i) => i.startsWith(join(SRC, "app/runtime"))),
    );
    expect(reachingUp.map(([file]) => relative(SRC, file))).toEqual([]);
  });
});
