import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { PROJECT_ROOT } from "../../src/project-root.ts";

/**
 * States a journey reached, observed on the wire: every JSON-RPC result a test app answers (test/support/app.ts) is
 * walked against the method's result schema in the served OpenRPC document, and each value of an enumeration-typed
 * field is recorded under the enumeration's name. Recording runs for the tests of a journey file that calls `expectReached`,
 * which also checks, after the file's tests, that every state it declares was seen. test/journeys/reachability.pure.test.ts
 * reads those declarations (they must be literals) to prove each seed state set is covered.
 */

type Schema = {
  $ref?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
};

interface Doc {
  methods: { name: string; result: { schema: Schema } }[];
  components: { schemas: Record<string, Schema> };
}

const seen = new Map<string, Set<string>>();
let doc: Doc | null = null;
let results: Map<string, Schema> | null = null;
let recording = false;

function load(): { doc: Doc; results: Map<string, Schema> } {
  if (!doc || !results) {
    doc = JSON.parse(readFileSync(join(PROJECT_ROOT, "generated", "openrpc", "all.json"), "utf8")) as Doc;
    results = new Map(doc.methods.map((m) => [m.name, m.result.schema]));
  }
  return { doc, results };
}

function record(name: string, value: string): void {
  const set = seen.get(name) ?? new Set<string>();
  set.add(value);
  seen.set(name, set);
}

function walk(schema: Schema, value: unknown, schemas: Record<string, Schema>, depth: number): void {
  if (value === null || value === undefined || depth > 12) return;
  if (schema.$ref) {
    const name = schema.$ref.slice("#/components/schemas/".length);
    const target = schemas[name];
    if (!target) return;
    if (target.enum && typeof value === "string" && target.enum.includes(value)) record(name, value);
    walk(target, value, schemas, depth + 1);
    return;
  }
  for (const branch of schema.anyOf ?? []) walk(branch, value, schemas, depth + 1);
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) walk(schema.items, item, schemas, depth + 1);
    return;
  }
  if (typeof value === "object" && schema.properties) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      walk(sub, (value as Record<string, unknown>)[key], schemas, depth + 1);
    }
  }
}

/** Called by the test app for every JSON-RPC answer; a no-op unless a journey file asked for recording. */
export function observeResult(method: string, result: unknown): void {
  if (!recording) return;
  const { doc, results } = load();
  const schema = results.get(method);
  if (schema) walk(schema, result, doc.components.schemas, 0);
}

/** The states recorded so far in this file (enumeration name -> values). */
export function reachedStates(): ReadonlyMap<string, ReadonlySet<string>> {
  return seen;
}

/**
 * Declares the states this journey file reaches and checks them after its tests. Write the argument as a literal
 * object of string arrays: the reachability test reads it from the source.
 */
export function expectReached(states: Record<string, readonly string[]>): void {
  // Test files share modules within a worker (isolate: false): each file starts from nothing and stops recording.
  beforeAll(() => {
    seen.clear();
    recording = true;
  });
  afterAll(() => {
    recording = false;
    const observed = new Map(seen);
    seen.clear();
    const missing = Object.entries(states).flatMap(([name, values]) =>
      values.filter((v) => !observed.get(name)?.has(v)).map((v) => `${name}.${v}`),
    );
    expect(missing, "states this journey declares but no answer showed").toEqual([]);
  });
}
