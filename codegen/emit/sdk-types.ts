import { compile } from "json-schema-to-typescript";
import type { JsonSchema } from "../model.ts";
import { pascalCase, REF_PREFIX, refName, tsTypeName } from "../naming.ts";
import { mapRefs, stripExtensions } from "../schema-walk.ts";
import type { SdkMethod, SdkModel } from "./sdk-model.ts";
import { COMPILE_OPTIONS } from "./types.ts";

/** A TypeScript identifier for a schema or method name, as json-schema-to-typescript would keep it. */
export function typeIdentifier(raw: string): string {
  const joined = raw
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  const name = tsTypeName(joined || "Schema");
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

export interface SdkTypes {
  /** The code of types.ts (unformatted). */
  code: string;
  /** Per method: the params and result type names in types.ts. */
  params: Map<string, string>;
  results: Map<string, string>;
  /** Methods whose every param may be left out. */
  optionalParams: Set<string>;
}

/**
 * `{ $ref, description }`: json-schema-to-typescript copies the target as `Target1`; name the target instead (a
 * description stays as the property's doc comment). Refs point at the renamed definitions.
 */
function refsByName(schema: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => refsByName(s, names));
  if (schema === null || typeof schema !== "object") return schema;
  const obj = schema as JsonSchema;
  const target = typeof obj["$ref"] === "string" ? refName(obj["$ref"]) : null;
  if (target && names.has(target) && Object.keys(obj).length > 1) {
    const description = obj["description"];
    return { tsType: names.get(target), ...(typeof description === "string" ? { description } : {}) };
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, refsByName(v, names)]));
}

const REFERENCED_NOTE =
  / \* This interface was referenced by `SdkTypes`'s JSON-Schema\n \* via the `definition` "[^"\n]*"\.\n/g;

function paramsSchema(m: SdkMethod): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const p of m.params) properties[p.name] = p.description ? { ...p.schema, description: p.description } : p.schema;
  return {
    type: "object",
    properties,
    required: m.params.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/**
 * types.ts: every component schema (enums as string unions), each method's params object and any inline result,
 * compiled in one pass by json-schema-to-typescript at generation time. `reserved` names (the runtime's exports)
 * are never used for a schema.
 */
export async function sdkTypes(model: SdkModel, reserved: Set<string>): Promise<SdkTypes> {
  const taken = new Set(reserved);
  const unique = (wanted: string): string => {
    let name = wanted;
    for (let i = 2; taken.has(name); i++) name = `${wanted}${i}`;
    taken.add(name);
    return name;
  };
  const names = new Map<string, string>();
  for (const name of Object.keys(model.schemas)) {
    const id = typeIdentifier(name);
    names.set(name, unique(reserved.has(id) ? `${id}Schema` : id));
  }
  const definitions: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(model.schemas)) {
    const id = names.get(name)!;
    definitions[id] = { ...schema, title: id };
  }
  const params = new Map<string, string>();
  const results = new Map<string, string>();
  const optionalParams = new Set<string>();
  for (const m of model.methods) {
    const base = typeIdentifier(m.owner === m.namespace ? `${m.namespace}_${m.op}` : `${m.owner}${pascalCase(m.op)}`);
    const paramsName = unique(`${base}Params`);
    definitions[paramsName] = { ...paramsSchema(m), title: paramsName };
    params.set(m.name, paramsName);
    if (m.params.every((p) => !p.required)) optionalParams.add(m.name);
    const ref = typeof m.result["$ref"] === "string" ? refName(m.result["$ref"]) : null;
    if (ref && names.has(ref) && Object.keys(m.result).length === 1) {
      results.set(m.name, names.get(ref)!);
    } else if (Object.keys(m.result).length === 0) {
      results.set(m.name, "unknown");
    } else {
      const resultName = unique(`${base}Result`);
      definitions[resultName] = { ...m.result, title: resultName };
      results.set(m.name, resultName);
    }
  }
  const wrapper = refsByName(stripExtensions({ title: "SdkTypes", type: "object", definitions }), names);
  const root = mapRefs(wrapper, (ref) => {
    const name = refName(ref);
    return name && names.has(name) ? `#/definitions/${names.get(name)}` : ref.replace(REF_PREFIX, "#/definitions/");
  }) as JsonSchema;
  const compiled = await compile(root as never, "SdkTypes", COMPILE_OPTIONS);
  const code = compiled
    .replace(/export interface SdkTypes \{[^}]*\}\n?/, "")
    .replace(REFERENCED_NOTE, "")
    .replace(/ \* ?\n \*\//g, " */")
    .replace(/\/\*\*\n \*\/\n/g, "")
    // An object without properties admits no key (`{}` would admit any value but null).
    .replace(/^export interface (\w+) \{\s*\}$/gm, "export type $1 = Record<string, never>;");
  return { code, params, results, optionalParams };
}
