import { compile } from "json-schema-to-typescript";
import { distinctParams, HEADER } from "../derive.ts";
import type { JsonSchema, SpecModel } from "../model.ts";
import { refName, tsTypeName } from "../naming.ts";
import { mapRefs, stripExtensions } from "../schema-walk.ts";
import type { GeneratedFile } from "../write.ts";

/** json-schema-to-typescript settings shared by generated/types.ts and the client's types (sdk-types.ts). */
export const COMPILE_OPTIONS = {
  bannerComment: "",
  unreachableDefinitions: true,
  additionalProperties: false,
  declareExternallyReferenced: true,
  format: false,
  strictIndexSignatures: true,
  enableConstEnums: false,
};

/**
 * `{ $ref, default, description }`: draft-07 ignores a ref's siblings, but json-schema-to-typescript turns such
 * a schema into a copy of the target named `Target1`, `Target2`... Name the target directly instead; a
 * description stays as the property's doc comment.
 */
function refsByName(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(refsByName);
  if (schema === null || typeof schema !== "object") return schema;
  const obj = schema as JsonSchema;
  const name = typeof obj["$ref"] === "string" ? refName(obj["$ref"]) : null;
  if (name && Object.keys(obj).length > 1) {
    const description = obj["description"];
    return { tsType: tsTypeName(name), ...(typeof description === "string" ? { description } : {}) };
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, refsByName(v)]));
}

// json-schema-to-typescript notes on every definition how the wrapper schema reached it: noise here.
const REFERENCED_NOTE =
  / \* This interface was referenced by `SpecTypes`'s JSON-Schema\n \* via the `definition` "[^"\n]*"\.\n/g;

function withoutReferencedNotes(code: string): string {
  return code
    .replace(REFERENCED_NOTE, "")
    .replace(/ \* ?\n \*\//g, " */")
    .replace(/\/\*\*\n \*\/\n/g, "");
}

/** TypeScript types for every named schema and every method's params. */
export async function emitTypes(model: SpecModel): Promise<GeneratedFile[]> {
  const definitions: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(model.schemas)) definitions[name] = { ...schema, title: name };
  for (const [name, schema] of distinctParams(model)) definitions[name] = schema;
  const wrapper = refsByName(stripExtensions({ title: "SpecTypes", type: "object", definitions }));
  const root = mapRefs(wrapper, (ref) => ref.replace("#/components/schemas/", "#/definitions/")) as JsonSchema;
  const code = await compile(root as never, "SpecTypes", COMPILE_OPTIONS);
  const body = withoutReferencedNotes(code.replace(/export interface SpecTypes \{[^}]*\}\n?/, ""));
  return [{ path: "generated/types.ts", content: `${HEADER}\n${body}` }];
}
