import { Ajv } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import formatsPlugin from "ajv-formats";
import { distinctParams, HEADER, wireSchemas } from "../derive.ts";
import type { JsonSchema, RecordModel, SpecModel } from "../model.ts";
import { writableFields } from "../records.ts";
import { mapRefs } from "../schema-walk.ts";
import type { GeneratedFile } from "../write.ts";

/** The `x-` keywords our schemas carry; declared so ajv's strict mode accepts them. */
export const SPEC_KEYWORDS = [
  "x-indexed",
  "x-owner",
  "x-crud",
  "x-managed",
  "x-secret",
  "x-private",
  "x-append-only",
  "x-unique",
  "x-domain",
];

const SPEC_ID = "freezone:spec";

// CommonJS default exports seen from ESM: the function sits on `.default`.
const addFormats = formatsPlugin.default;
const standaloneCode = standaloneModule.default;

/**
 * `inlineRefs: false` compiles each named schema once as its own function instead of inlining it at every use,
 * and `optimize: false` skips ajv's code-simplification pass: together they halve compile time at the same output
 * size. `lines: true` keeps one statement per line, so a spec change shows up as a readable diff.
 */
export function createAjv(): Ajv {
  const ajv = new Ajv({
    strict: true,
    allErrors: false,
    allowUnionTypes: true,
    inlineRefs: false,
    code: { source: true, esm: false, lines: true, optimize: false },
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: SPEC_KEYWORDS });
  return ajv;
}

/** ajv standalone validators for every method's params and result, compiled once into CommonJS. */
export function emitValidators(model: SpecModel): GeneratedFile[] {
  const ajv = createAjv();
  const toSpec = (s: unknown) => mapRefs(s, (ref) => ref.replace("#/components/schemas/", `${SPEC_ID}#/definitions/`));
  ajv.addSchema({ $id: SPEC_ID, definitions: toSpec(wireSchemas(model)) as JsonSchema });
  const exports: Record<string, string> = {};
  for (const [name, schema] of distinctParams(model)) {
    ajv.addSchema({ ...(toSpec(schema) as JsonSchema), $id: `freezone:params:${name}` });
    exports[`validate${name}`] = `freezone:params:${name}`;
  }
  for (const record of model.records.filter((r) => r.crud !== "none")) {
    ajv.addSchema({ ...(toSpec(setDataSchema(record)) as JsonSchema), $id: `freezone:set:${record.name}` });
    exports[`validate${record.name}SetData`] = `freezone:set:${record.name}`;
  }
  const results = new Set(model.methods.map((m) => m.result).filter(Boolean));
  for (const result of [...results].sort()) exports[`validate${result}`] = `${SPEC_ID}#/definitions/${result}`;
  const code = standaloneCode(ajv, exports);
  const names = Object.keys(exports);
  const dts = [
    HEADER,
    'import type { ValidateFunction } from "ajv";',
    ...names.map((n) => `export declare const ${n}: ValidateFunction;`),
    "",
  ].join("\n");
  return [
    { path: "generated/validators.cjs", content: `${HEADER}\n${code}\n` },
    { path: "generated/validators.d.cts", content: dts },
  ];
}

/** What generic `set` accepts in `data`: the writable fields (and `sid` to update), nothing else. */
function setDataSchema(record: RecordModel): JsonSchema {
  const props = record.schema["properties"] as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = { sid: { type: "string" } };
  for (const field of writableFields(record)) properties[field] = props[field] ?? {};
  return { type: "object", properties, additionalProperties: false };
}
