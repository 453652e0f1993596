import { Worker } from "node:worker_threads";
import { distinctParams, HEADER, wireSchemas } from "../derive.ts";
import { withRequestLimits } from "../limits.ts";
import type { JsonSchema, RecordModel, SpecModel } from "../model.ts";
import { writableFields } from "../records.ts";
import { mapRefs } from "../schema-walk.ts";
import type { GeneratedFile } from "../write.ts";

/** The `x-` keywords our schemas carry; declared so ajv's strict mode accepts them. */
const SPEC_KEYWORDS = [
  "x-indexed",
  "x-owner",
  "x-crud",
  "x-managed",
  "x-secret",
  "x-private",
  "x-append-only",
  "x-unique",
  "x-domain",
  "x-money",
  "x-decimal",
];

const SPEC_ID = "freezone:spec";

/** Runs ajv on the worker thread; resolves to the standalone CommonJS module text. */
function compileOnWorker(input: {
  keywords: string[];
  schemas: JsonSchema[];
  exports: Record<string, string>;
  specId: string;
}) {
  return new Promise<string>((resolve, reject) => {
    // Plain JavaScript: the worker needs none of the parent's loaders (tsx, vitest).
    const worker = new Worker(new URL("./validators-worker.mjs", import.meta.url), { workerData: input, execArgv: [] });
    worker.once("message", (msg: { code?: string; error?: string }) => {
      if (msg.code !== undefined) resolve(msg.code);
      else reject(new Error(`codegen: ajv failed on the validators: ${msg.error}`));
    });
    worker.once("error", reject);
  });
}

/** ajv standalone validators for every method's params and result, compiled once into CommonJS. */
export async function emitValidators(model: SpecModel): Promise<GeneratedFile[]> {
  const toSpec = (s: unknown) =>
    withRequestLimits(
      mapRefs(s, (ref) => ref.replace("#/components/schemas/", `${SPEC_ID}#/definitions/`)) as JsonSchema,
    );
  const schemas: JsonSchema[] = [{ $id: SPEC_ID, definitions: toSpec(wireSchemas(model)) }];
  const exports: Record<string, string> = {};
  for (const [name, schema] of distinctParams(model)) {
    schemas.push({ ...toSpec(schema), $id: `freezone:params:${name}` });
    exports[`validate${name}`] = `freezone:params:${name}`;
  }
  for (const record of model.records.filter((r) => r.crud !== "none")) {
    schemas.push({ ...toSpec(setDataSchema(record)), $id: `freezone:set:${record.name}` });
    exports[`validate${record.name}SetData`] = `freezone:set:${record.name}`;
  }
  const results = new Set(model.methods.map((m) => m.result).filter(Boolean));
  for (const result of [...results].sort()) exports[`validate${result}`] = `${SPEC_ID}#/definitions/${result}`;
  const code = await compileOnWorker({ keywords: SPEC_KEYWORDS, schemas, exports, specId: SPEC_ID });
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
