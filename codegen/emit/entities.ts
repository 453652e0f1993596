import { HEADER } from "../derive.ts";
import type { FieldModel, RecordModel, SpecModel } from "../model.ts";
import type { GeneratedFile } from "../write.ts";

const COLUMN: Record<FieldModel["kind"], { type: string; columnType: string }> = {
  string: { type: "string", columnType: "text" },
  integer: { type: "bigint", columnType: "bigint" },
  number: { type: "double", columnType: "double precision" },
  boolean: { type: "boolean", columnType: "boolean" },
  datetime: { type: "datetime", columnType: "timestamptz(3)" },
  "string[]": { type: "string[]", columnType: "text[]" },
  json: { type: "json", columnType: "jsonb" },
};

function property(field: FieldModel): string {
  if (field.name === "sid") return `    sid: { type: "string", columnType: "text", primary: true },`;
  const col = COLUMN[field.kind];
  const type =
    field.kind === "integer"
      ? 'new BigIntType("number")'
      : field.kind === "string[]"
        ? "ArrayType"
        : JSON.stringify(col.type);
  const parts = [`type: ${type}`, `columnType: ${JSON.stringify(col.columnType)}`];
  if (field.nullable) parts.push("nullable: true");
  if (field.default !== null && field.default !== undefined && typeof field.default !== "object") {
    parts.push(`default: ${JSON.stringify(field.default)}`);
  }
  if (field.name === "created_at") parts.push("onCreate: () => new Date()");
  if (field.name === "updated_at") parts.push("onCreate: () => new Date()", "onUpdate: () => new Date()");
  return `    ${field.name}: { ${parts.join(", ")} },`;
}

function entity(r: RecordModel): string {
  const uniques = r.unique.map(
    (u) => `{ name: ${JSON.stringify(`${r.table}_${u.join("_")}_unique`)}, properties: ${JSON.stringify(u)} }`,
  );
  const uniqueSingles = new Set(r.unique.filter((u) => u.length === 1).map((u) => u[0]));
  const indexes = r.indexed
    .filter((f) => !uniqueSingles.has(f))
    .map((f) => `{ name: ${JSON.stringify(`${r.table}_${f}_index`)}, properties: [${JSON.stringify(f)}] }`);
  return [
    `export const ${r.name}Entity = new EntitySchema<EntityRow>({`,
    `  name: ${JSON.stringify(r.name)},`,
    `  tableName: ${JSON.stringify(r.table)},`,
    "  properties: {",
    ...r.fields.map(property),
    "  },",
    `  indexes: [${indexes.join(", ")}],`,
    `  uniques: [${uniques.join(", ")}],`,
    "});",
  ].join("\n");
}

/** MikroORM EntitySchemas, one per record; migrations are generated from them by `npm run db:migration`. */
export function emitEntities(model: SpecModel): GeneratedFile[] {
  const content = [
    HEADER,
    'import { ArrayType, BigIntType, EntitySchema } from "@mikro-orm/core";',
    "",
    "/** Rows are plain objects keyed by the spec's field names. */",
    "export type EntityRow = Record<string, unknown> & { sid: string };",
    "",
    ...model.records.map(entity).flatMap((e) => [e, ""]),
    `export const ENTITIES = [${model.records.map((r) => `${r.name}Entity`).join(", ")}];`,
    "",
    "export const ENTITY_BY_RECORD: Record<string, EntitySchema<EntityRow>> = {",
    ...model.records.map((r) => `  ${r.name}: ${r.name}Entity,`),
    "};",
    "",
  ].join("\n");
  return [{ path: "generated/entities.ts", content }];
}
