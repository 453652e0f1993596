import { HEADER } from "../derive.ts";
import type { FieldModel, JsonSchema, RecordModel, SpecModel } from "../model.ts";
import { refName } from "../naming.ts";
import { nonNull } from "../records.ts";
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

function mappedType(field: FieldModel): string {
  if (field.numeric) return 'new DecimalType("number")';
  if (field.kind === "integer") return 'new BigIntType("number")';
  if (field.kind === "string[]") return "ArrayType";
  return JSON.stringify(COLUMN[field.kind].type);
}

function property(field: FieldModel): string {
  if (field.name === "sid") return `    sid: { type: "string", columnType: "text", primary: true },`;
  const { numeric } = field;
  const columnType = numeric ? `numeric(${numeric.precision},${numeric.scale})` : COLUMN[field.kind].columnType;
  const parts = [`type: ${mappedType(field)}`, `columnType: ${JSON.stringify(columnType)}`];
  if (numeric) parts.push(`precision: ${numeric.precision}`, `scale: ${numeric.scale}`);
  if (field.nullable) parts.push("nullable: true");
  if (field.default !== null && field.default !== undefined && typeof field.default !== "object") {
    parts.push(`default: ${JSON.stringify(field.default)}`);
  }
  if (field.name === "created_at") parts.push("onCreate: () => new Date()");
  if (field.name === "updated_at") parts.push("onCreate: () => new Date()", "onUpdate: () => new Date()");
  return `    ${field.name}: { ${parts.join(", ")} },`;
}

/** The TypeScript type of a stored value: named spec types where the schema names one, Date for datetimes. */
function valueType(schema: JsonSchema, field: FieldModel, named: Set<string>): string {
  const ref = typeof schema["$ref"] === "string" ? refName(schema["$ref"]) : null;
  if (ref && named.has(ref)) return ref;
  switch (field.kind) {
    case "datetime":
      return "Date";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "string":
      return Array.isArray(schema["enum"]) ? schema["enum"].map((v) => JSON.stringify(v)).join(" | ") : "string";
    case "string[]":
    case "json": {
      if (schema["type"] !== "array") return field.kind === "json" ? "Record<string, unknown>" : "string[]";
      const items = nonNull((schema["items"] ?? {}) as JsonSchema).schema;
      const itemRef = typeof items["$ref"] === "string" ? refName(items["$ref"]) : null;
      return itemRef && named.has(itemRef) ? `${itemRef}[]` : field.kind === "string[]" ? "string[]" : "unknown[]";
    }
  }
}

function fieldType(field: FieldModel, named: Set<string>): string {
  const type = valueType(nonNull(field.schema).schema, field, named);
  return field.nullable ? `${type} | null` : type;
}

/** Fields a create may leave out: the primary key, timestamps set on create, nullable fields and defaults. */
function optionalOnCreate(r: RecordModel): string[] {
  return r.fields
    .filter(
      (f) =>
        f.name !== "sid" &&
        (f.name === "created_at" || f.name === "updated_at" || (f.default !== null && f.default !== undefined)),
    )
    .map((f) => f.name);
}

/** The row a record is stored as: what `em.find` returns and `em.create` takes. */
function rowInterface(r: RecordModel, named: Set<string>): string {
  const optional = optionalOnCreate(r);
  return [
    `/** A stored ${r.name} (table \`${r.table}\`). */`,
    `export interface ${r.name}Row {`,
    ...(optional.length > 0 ? [`  [OptionalProps]?: ${optional.map((f) => JSON.stringify(f)).join(" | ")};`] : []),
    ...r.fields.map((f) => `  ${f.name}: ${fieldType(f, named)};`),
    "}",
  ].join("\n");
}

function entity(r: RecordModel): string {
  const uniques = r.unique.map(
    (u) => `{ name: ${JSON.stringify(`${r.table}_${u.join("_")}_unique`)}, properties: ${JSON.stringify(u)} }`,
  );
  for (const u of r.uniqueWhere) {
    const name = `${r.table}_${u.name}_unique`;
    const columns = u.fields.map((f) => `"${f}"`).join(", ");
    const sql = `create unique index "${name}" on "${r.table}" (${columns}) where ${u.where}`;
    uniques.push(`{ name: ${JSON.stringify(name)}, expression: ${JSON.stringify(sql)} }`);
  }
  const uniqueSingles = new Set(r.unique.filter((u) => u.length === 1).map((u) => u[0]));
  const indexes = r.indexed
    .filter((f) => !uniqueSingles.has(f))
    .map((f) => `{ name: ${JSON.stringify(`${r.table}_${f}_index`)}, properties: [${JSON.stringify(f)}] }`);
  return [
    `export const ${r.name}Entity = new EntitySchema<${r.name}Row>({`,
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

/** Named spec types the rows refer to (enums and shared object schemas), imported from types.ts. */
function namedTypes(model: SpecModel): Set<string> {
  const used = new Set<string>();
  const visit = (schema: JsonSchema) => {
    const ref = typeof schema["$ref"] === "string" ? refName(schema["$ref"]) : null;
    if (ref && model.schemas[ref]) used.add(ref);
    for (const key of ["anyOf", "oneOf"]) {
      const list = schema[key];
      if (Array.isArray(list)) for (const s of list) visit(s as JsonSchema);
    }
    if (schema["items"] && typeof schema["items"] === "object") visit(schema["items"] as JsonSchema);
  };
  for (const r of model.records) for (const f of r.fields) visit(f.schema);
  return used;
}

/**
 * Typed rows and MikroORM EntitySchemas, one per record; migrations are generated from the entities by
 * `npm run db:migration`. Money fields (`x-money`) are numeric(18,2) read back as numbers.
 */
export function emitEntities(model: SpecModel): GeneratedFile[] {
  const named = namedTypes(model);
  const imports = [...named].sort();
  const content = [
    HEADER,
    'import { ArrayType, BigIntType, DecimalType, EntitySchema, type OptionalProps } from "@mikro-orm/core";',
    ...(imports.length > 0 ? [`import type {\n${imports.map((n) => `  ${n},`).join("\n")}\n} from "./types.ts";`] : []),
    "",
    ...model.records.flatMap((r) => [rowInterface(r, named), "", entity(r), ""]),
    "/** Every record's row type by record name. */",
    "export interface RowOf {",
    ...model.records.map((r) => `  ${r.name}: ${r.name}Row;`),
    "}",
    "",
    "/** A row of any record, for code that works on every record alike (generic CRUD). */",
    "export type AnyRow = { sid: string } & Record<string, unknown>;",
    "",
    `export const ENTITIES = [${model.records.map((r) => `${r.name}Entity`).join(", ")}];`,
    "",
    "/** The entity of each record; generic code sees rows as AnyRow. */",
    "export const ENTITY_BY_RECORD = {",
    ...model.records.map((r) => `  ${r.name}: ${r.name}Entity,`),
    "} as unknown as Record<keyof RowOf, EntitySchema<AnyRow>>;",
    "",
  ].join("\n");
  return [{ path: "generated/entities.ts", content }];
}
