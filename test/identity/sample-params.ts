import { readFileSync } from "node:fs";
import { join } from "node:path";

type Schema = Record<string, any>;

interface OpenRpcMethod {
  name: string;
  params: { name: string; required?: boolean; schema: Schema }[];
}

const doc = JSON.parse(readFileSync(join(import.meta.dirname, "../../generated/openrpc/all.json"), "utf8")) as {
  methods: OpenRpcMethod[];
  components: { schemas: Record<string, Schema> };
};

function deref(schema: Schema): Schema {
  let s = schema;
  while (typeof s.$ref === "string") s = doc.components.schemas[s.$ref.split("/").pop() as string] ?? {};
  return s;
}

/** A value valid against `schema` (enough for the params validators: the test is about what comes after them). */
export function sample(schema: Schema, name = ""): unknown {
  const s = deref(schema);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null);
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(s[key])) {
      const option = (s[key] as Schema[]).find((o) => deref(o).type !== "null") ?? s[key][0];
      return sample(option, name);
    }
  }
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((p: Schema) => sample(p, name)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "string":
      return sampleString(s, name);
    case "integer":
    case "number":
      return typeof s.minimum === "number"
        ? Math.max(s.minimum, 1)
        : typeof s.exclusiveMinimum === "number"
          ? s.exclusiveMinimum + 1
          : 1;
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}, name));
    case "object":
    case undefined: {
      const out: Record<string, unknown> = {};
      for (const key of (s.required as string[] | undefined) ?? []) out[key] = sample(s.properties?.[key] ?? {}, key);
      return out;
    }
    default:
      return null;
  }
}

function sampleString(s: Schema, name: string): string {
  if (s.format === "date-time") return "2026-11-23T10:00:00.000Z";
  if (s.format === "date") return "2026-11-23";
  if (s.format === "email") return "someone@example.org";
  if (s.format === "uri") return "https://example.org/x";
  if (typeof s.pattern === "string") {
    const hex = /\[0-9a-f\]\{(\d+)\}/.exec(s.pattern);
    if (hex) return "a".repeat(Number(hex[1]));
  }
  if (/currency/.test(name)) return "USD";
  const base = `sample-${name || "value"}`;
  const min = s.minLength ?? 1;
  const text = base.length >= min ? base : base.padEnd(min, "x");
  return typeof s.maxLength === "number" ? text.slice(0, s.maxLength) : text;
}

/** Every required param of `method` with a sample value. */
export function sampleParams(method: string): Record<string, unknown> {
  const m = doc.methods.find((x) => x.name === method);
  if (!m) throw new Error(`no method ${method} in the OpenRPC document`);
  const out: Record<string, unknown> = {};
  for (const p of m.params) if (p.required) out[p.name] = sample(p.schema, p.name);
  return out;
}
