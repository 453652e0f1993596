import { compile } from "json-schema-to-typescript";
import { distinctParams, HEADER } from "../derive.ts";
import type { JsonSchema, SpecModel } from "../model.ts";
import { mapRefs, stripExtensions } from "../schema-walk.ts";
import type { GeneratedFile } from "../write.ts";

/** TypeScript types for every named schema and every method's params. */
export async function emitTypes(model: SpecModel): Promise<GeneratedFile[]> {
  const definitions: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(model.schemas)) definitions[name] = { ...schema, title: name };
  for (const [name, schema] of distinctParams(model)) definitions[name] = schema;
  const root = mapRefs(stripExtensions({ title: "FreezoneSpec", type: "object", definitions }), (ref) =>
    ref.replace("#/components/schemas/", "#/definitions/"),
  ) as JsonSchema;
  const code = await compile(root as never, "FreezoneSpec", {
    bannerComment: "",
    unreachableDefinitions: true,
    additionalProperties: false,
    declareExternallyReferenced: true,
    format: false,
    strictIndexSignatures: true,
    enableConstEnums: false,
  });
  const body = code.replace(/export interface FreezoneSpec \{[^}]*\}\n?/, "");
  return [{ path: "generated/types.ts", content: `${HEADER}\n/* eslint-disable */\n${body}` }];
}
