import type { JsonSchema } from "./model.ts";
import { refName } from "./naming.ts";

/** Visits every `$ref` in a schema (deep), with the JSON pointer below the schema's root. */
export function forEachRef(schema: unknown, visit: (ref: string, ptr: string) => void, ptr = ""): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => {
      forEachRef(item, visit, `${ptr}/${i}`);
    });
    return;
  }
  if (schema === null || typeof schema !== "object") return;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string") visit(value, `${ptr}/$ref`);
    else forEachRef(value, visit, `${ptr}/${key}`);
  }
}

/** Names of every named schema reachable from the given roots. */
export function reachableSchemas(roots: unknown[], schemas: Record<string, JsonSchema>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    forEachRef(queue.pop(), (ref) => {
      const name = refName(ref);
      if (name && !seen.has(name) && schemas[name]) {
        seen.add(name);
        queue.push(schemas[name]);
      }
    });
  }
  return seen;
}

/** Deep copy with every `$ref` rewritten by `map` (returning a string replaces the ref). */
export function mapRefs<T>(schema: T, map: (ref: string) => string): T {
  if (Array.isArray(schema)) return schema.map((item) => mapRefs(item, map)) as T;
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === "$ref" && typeof value === "string" ? map(value) : mapRefs(value, map);
  }
  return out as T;
}

/** Inlines every `$ref` (recursively); recursion through a ref already being expanded keeps the ref. */
export function dereference(schema: unknown, schemas: Record<string, JsonSchema>, stack: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => dereference(item, schemas, stack));
  if (schema === null || typeof schema !== "object") return schema;
  const obj = schema as JsonSchema;
  if (typeof obj["$ref"] === "string") {
    const name = refName(obj["$ref"]);
    const target = name ? schemas[name] : undefined;
    if (!name || !target || stack.includes(name)) return obj;
    const { $ref: _ref, ...rest } = obj;
    const inlined = dereference(target, schemas, [...stack, name]) as JsonSchema;
    return Object.keys(rest).length > 0
      ? { ...inlined, ...(dereference(rest, schemas, stack) as JsonSchema) }
      : inlined;
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(obj)) out[key] = dereference(value, schemas, stack);
  return out;
}

/** Removes `x-` extension keywords (deep), for documents that must be plain JSON Schema. */
export function stripExtensions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripExtensions);
  if (schema === null || typeof schema !== "object") return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!key.startsWith("x-"))
      out[key] = key === "properties" ? mapValues(value, stripExtensions) : stripExtensions(value);
  }
  return out;
}

function mapValues(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(v)]));
}
