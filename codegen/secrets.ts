import type { JsonSchema } from "./model.ts";
import { refName } from "./naming.ts";

/**
 * Where `x-secret: true` properties sit in the values of a named schema (a method's result): each path a list of
 * property names, `*` for every item of an array or every value of a map. The dispatcher sets each to null in every
 * result (src/rpc/result-secrets.ts), so a secret inside an embedded schema (an invoice's payment instructions)
 * never leaves the server, whichever operation (generic CRUD or a service) answers it. Top-level secret fields of
 * a record are not here: the record's public view has no such property (x-secret on the record).
 */
export function secretPaths(name: string, schemas: Record<string, JsonSchema>): string[][] {
  const found = new Map<string, string[]>();
  const walk = (node: unknown, path: string[], stack: string[]): void => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    const schema = node as JsonSchema;
    const ref = typeof schema["$ref"] === "string" ? refName(schema["$ref"]) : null;
    if (ref && schemas[ref] && !stack.includes(ref)) walk(schemas[ref], path, [...stack, ref]);
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      const branches = schema[key];
      if (Array.isArray(branches)) for (const branch of branches) walk(branch, path, stack);
    }
    walk(schema["items"], [...path, "*"], stack);
    walk(schema["additionalProperties"], [...path, "*"], stack);
    const properties = schema["properties"];
    if (properties === null || typeof properties !== "object") return;
    for (const [key, property] of Object.entries(properties as Record<string, JsonSchema>)) {
      if (property?.["x-secret"] === true) found.set([...path, key].join("\u0000"), [...path, key]);
      else walk(property, [...path, key], stack);
    }
  };
  walk(schemas[name], [], [name]);
  return [...found.values()];
}
