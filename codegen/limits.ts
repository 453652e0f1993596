import type { JsonSchema } from "./model.ts";

/** API.md request limits: strings 64 KiB and arrays 1,000 items, unless a field says otherwise. */
export const MAX_STRING_LENGTH = 64 * 1024;
export const MAX_ARRAY_ITEMS = 1000;

function hasType(schema: JsonSchema, type: string): boolean {
  const t = schema["type"];
  return t === type || (Array.isArray(t) && t.includes(type));
}

/** Adds the default limits (deep) where a schema has none; the validators enforce them on every input. */
export function withRequestLimits<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s) => withRequestLimits(s)) as T;
  if (schema === null || typeof schema !== "object") return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    out[key] =
      key === "enum" || key === "const" || key === "default" || key === "examples" ? value : withRequestLimits(value);
  }
  if (
    hasType(out, "string") &&
    out["maxLength"] === undefined &&
    out["enum"] === undefined &&
    out["const"] === undefined
  ) {
    out["maxLength"] = MAX_STRING_LENGTH;
  }
  if (hasType(out, "array") && out["maxItems"] === undefined) out["maxItems"] = MAX_ARRAY_ITEMS;
  return out as T;
}
