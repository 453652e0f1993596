import { type Diagnostics, pointer } from "./diagnostics.ts";
import { didYouMean } from "./extensions.ts";
import type {
  CrudMode,
  CrudOp,
  FieldKind,
  FieldModel,
  JsonSchema,
  McpListing,
  MethodModel,
  NumericColumn,
  ParamModel,
  PartialUnique,
  RecordModel,
} from "./model.ts";
import { refName, snakeCase } from "./naming.ts";
import { parseCompanyLink } from "./targets.ts";

const CRUD_MODES: CrudMode[] = ["none", "read", "owner", "admin"];
export const AUTOMATIC_FIELDS: Record<string, JsonSchema> = {
  sid: { type: "string", description: "Opaque, time-ordered identifier (UUIDv7)." },
  created_at: { type: "string", format: "date-time" },
  updated_at: { type: "string", format: "date-time" },
};

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Splits a nullable schema into its non-null part. */
export function nonNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const type = schema["type"];
  if (Array.isArray(type) && type.includes("null")) {
    const rest = type.filter((t) => t !== "null");
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  const anyOf = schema["anyOf"];
  if (Array.isArray(anyOf) && anyOf.some((s: JsonSchema) => s["type"] === "null")) {
    const rest = anyOf.filter((s: JsonSchema) => s["type"] !== "null") as JsonSchema[];
    if (rest.length === 1 && rest[0]) return { schema: rest[0], nullable: true };
  }
  return { schema, nullable: false };
}

export function fieldKind(schema: JsonSchema, schemas: Record<string, JsonSchema>): FieldKind | null {
  const ref = typeof schema["$ref"] === "string" ? refName(schema["$ref"]) : null;
  if (ref) {
    const target = schemas[ref];
    if (!target) return null;
    if (target["enum"]) return "string";
    return target["type"] === "object" || target["oneOf"] || target["anyOf"] ? "json" : fieldKind(target, schemas);
  }
  switch (schema["type"]) {
    case "string":
      return schema["format"] === "date-time" ? "datetime" : "string";
    case "integer":
      return "integer";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      return "json";
    case "array": {
      const items = (schema["items"] ?? {}) as JsonSchema;
      const itemKind = fieldKind(nonNull(items).schema, schemas);
      return itemKind === "string" ? "string[]" : itemKind ? "json" : null;
    }
    default:
      return null;
  }
}

export function buildRecord(json: JsonSchema, file: string, diags: Diagnostics): RecordModel | null {
  const name = json["title"];
  if (typeof name !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    diags.add("record-title-missing", file, pointer("title"), "a record needs a PascalCase `title`");
    return null;
  }
  const properties = { ...((json["properties"] ?? {}) as Record<string, JsonSchema>) };
  if (properties["sid"])
    diags.add("record-declares-sid", file, pointer("properties", "sid"), "`sid` is added by codegen");
  const all: Record<string, JsonSchema> = { sid: AUTOMATIC_FIELDS["sid"]!, ...properties };
  for (const f of ["created_at", "updated_at"]) all[f] ??= AUTOMATIC_FIELDS[f]!;
  const crud = (json["x-crud"] ?? "read") as CrudMode;
  if (!CRUD_MODES.includes(crud)) {
    const hint = typeof crud === "string" ? didYouMean(crud, CRUD_MODES) : "";
    diags.add(
      "invalid-crud-mode",
      file,
      pointer("x-crud"),
      `x-crud ${JSON.stringify(crud)} is not one of ${CRUD_MODES.join(", ")}${hint}`,
    );
  }
  const owner = typeof json["x-owner"] === "string" ? [json["x-owner"]] : stringList(json["x-owner"]);
  const required = new Set(stringList(json["required"]));
  for (const field of Object.keys(properties)) {
    if (!required.has(field)) {
      diags.add(
        "record-field-not-required",
        file,
        pointer("required"),
        `field "${field}" must be listed in required (make it nullable instead)`,
      );
    }
  }
  const schema: JsonSchema = {
    ...json,
    properties: all,
    required: Object.keys(all),
    additionalProperties: false,
  };
  const managed = new Set(["sid", "created_at", "updated_at", ...stringList(json["x-managed"])]);
  const record: RecordModel = {
    name,
    lower: name.toLowerCase(),
    table: snakeCase(name),
    file,
    domain: typeof json["x-domain"] === "string" ? json["x-domain"] : "platform",
    description: typeof json["description"] === "string" ? json["description"] : "",
    schema,
    fields: [],
    indexed: stringList(json["x-indexed"]),
    unique: (Array.isArray(json["x-unique"]) ? json["x-unique"] : []).map((u: unknown) =>
      typeof u === "string" ? [u] : stringList(u),
    ),
    uniqueWhere: partialUniques(json["x-unique-where"], file, diags),
    owner,
    crud,
    managed: [...managed],
    secret: stringList(json["x-secret"]),
    private: stringList(json["x-private"]),
    crudScope: crudScope(json["x-crud-scope"], file, diags),
    appendOnly: json["x-append-only"] === true,
    company: parseCompanyLink(json["x-company"], file, diags),
    served: json["x-served"] !== false,
  };
  for (const key of ["x-indexed", "x-managed", "x-secret", "x-private"] as const) {
    for (const field of stringList(json[key])) {
      if (!all[field])
        diags.add("unknown-field", file, pointer(key), `${key} names "${field}", which the record does not have`);
    }
  }
  for (const [key, fields] of [
    ["x-owner", owner],
    ["x-unique", record.unique.flat()],
    ["x-unique-where", record.uniqueWhere.flatMap((u) => u.fields)],
    ["x-crud-scope", Object.keys(record.crudScope)],
  ] as const) {
    for (const field of fields) {
      if (!all[field])
        diags.add("unknown-field", file, pointer(key), `${key} names "${field}", which ${name} does not have`);
    }
  }
  return record;
}

/** `x-crud-scope`: `{ "<field>": <scalar> }`, the rows generic CRUD may reach. */
function crudScope(raw: unknown, file: string, diags: Diagnostics): RecordModel["crudScope"] {
  if (raw === undefined) return {};
  const scalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw) || !Object.values(raw).every(scalar)) {
    diags.add("invalid-crud-scope", file, pointer("x-crud-scope"), 'x-crud-scope must be { "<field>": <scalar>, ... }');
    return {};
  }
  return raw as RecordModel["crudScope"];
}

/** `x-unique-where`: `[{ "name": "personal_user", "fields": ["user_id"], "where": "partner_id is null" }]`. */
function partialUniques(raw: unknown, file: string, diags: Diagnostics): PartialUnique[] {
  if (raw === undefined) return [];
  const entries = Array.isArray(raw) ? raw : [raw];
  const out: PartialUnique[] = [];
  entries.forEach((entry, i) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const fields = stringList(e["fields"]);
    if (
      typeof e["name"] !== "string" ||
      !/^[a-z][a-z0-9_]*$/.test(e["name"]) ||
      fields.length === 0 ||
      typeof e["where"] !== "string"
    ) {
      diags.add(
        "invalid-unique-where",
        file,
        pointer("x-unique-where", String(i)),
        "needs a snake_case `name`, `fields` and a SQL `where`",
      );
      return;
    }
    out.push({ name: e["name"], fields, where: e["where"] });
  });
  return out;
}

/** Resolves field kinds once every named schema is known. */
export function resolveFields(record: RecordModel, schemas: Record<string, JsonSchema>, diags: Diagnostics): void {
  const props = record.schema["properties"] as Record<string, JsonSchema>;
  record.fields = Object.entries(props).map(([name, raw]): FieldModel => {
    const { schema, nullable } = nonNull(raw);
    let kind = fieldKind(schema, schemas);
    if (!kind) {
      diags.add(
        "unmappable-type",
        record.file,
        pointer("properties", name),
        `cannot map the type of "${name}" to a column`,
      );
      kind = "string";
    }
    const numeric = numericColumn(raw, kind, record.file, name, diags);
    return { name, kind, nullable, schema: raw, default: raw["default"] ?? null, numeric };
  });
}

/** Money is numeric(18,2): exact cents, up to 10^16 major units. */
export const MONEY_COLUMN: NumericColumn = { precision: 18, scale: 2, money: true };

/** `x-money: true` or `x-decimal: [precision, scale]` on a number field makes its column exact. */
function numericColumn(
  raw: JsonSchema,
  kind: FieldKind,
  file: string,
  name: string,
  diags: Diagnostics,
): NumericColumn | null {
  const money = raw["x-money"];
  const decimal = raw["x-decimal"];
  if (money === undefined && decimal === undefined) return null;
  const at = (key: string) => pointer("properties", name, key);
  if (kind !== "number") {
    diags.add(
      "numeric-not-number",
      file,
      at(money !== undefined ? "x-money" : "x-decimal"),
      `"${name}" is not a number`,
    );
    return null;
  }
  if (money !== undefined && decimal !== undefined) {
    diags.add("numeric-conflict", file, at("x-decimal"), `"${name}" has both x-money and x-decimal`);
    return null;
  }
  if (money !== undefined) {
    if (money !== true) diags.add("invalid-money", file, at("x-money"), "x-money must be true");
    return MONEY_COLUMN;
  }
  const [precision, scale] = Array.isArray(decimal) ? decimal : [];
  const valid =
    Array.isArray(decimal) &&
    decimal.length === 2 &&
    Number.isInteger(precision) &&
    Number.isInteger(scale) &&
    precision >= 1 &&
    precision <= 38 &&
    scale >= 0 &&
    scale <= precision;
  if (!valid) {
    diags.add("invalid-decimal", file, at("x-decimal"), "x-decimal must be [precision 1-38, scale 0-precision]");
    return null;
  }
  return { precision, scale, money: false };
}

const CRUD_OPS: CrudOp[] = ["new", "get", "set", "delete", "list", "find"];

const LIMIT: ParamModel = {
  name: "limit",
  required: false,
  description: "Page size, 1 to 1000 (default 1000).",
  schema: { type: "integer", minimum: 1, maximum: 1000 },
};
const CURSOR: ParamModel = {
  name: "cursor",
  required: false,
  description: "`next_cursor` of the previous page.",
  schema: { type: ["string", "null"] },
};

function crudParams(op: CrudOp): ParamModel[] {
  const sid: ParamModel = {
    name: "sid",
    required: true,
    description: "The record's sid.",
    schema: { type: "string", minLength: 1 },
  };
  switch (op) {
    case "new":
      return [];
    case "get":
    case "delete":
      return [sid];
    case "set":
      return [
        {
          name: "data",
          required: true,
          description: "The record as a JSON object text; with `sid` it updates that record, without it creates one.",
          schema: { type: "string", minLength: 2, maxLength: 1048576 },
        },
      ];
    case "list":
      return [LIMIT, CURSOR];
    case "find":
      return [
        {
          name: "query",
          required: true,
          description: 'JSON object text of equality conditions on indexed fields, ANDed: `{"field": value}`.',
          schema: { type: "string", minLength: 2, maxLength: 1048576 },
        },
        LIMIT,
        CURSOR,
      ];
  }
}

const CRUD_TEXT: Record<CrudOp, string> = {
  new: "Returns the record's template: every writable field with its default or null.",
  get: "Returns one record by sid; a record the caller may not see is NotFound.",
  set: "Creates (no sid in data) or updates (sid in data) a record; server-managed, secret and private fields are refused.",
  delete: "Deletes one record by sid.",
  list: "Lists the sids of the records the caller may see, newest first; follow next_cursor.",
  find: "Finds records by equality on indexed fields, newest first; follow next_cursor.",
};

function crudResult(record: RecordModel, op: CrudOp): string {
  switch (op) {
    case "new":
      return `${record.name}NewTemplate`;
    case "get":
    case "set":
      return record.name;
    case "delete":
      return "RecordDeleteResult";
    case "list":
      return "SidListResult";
    case "find":
      return `${record.name}FindResult`;
  }
}

/** Writable through generic `set`: not managed, secret or private. */
export function writableFields(record: RecordModel): string[] {
  const blocked = new Set([...record.managed, ...record.secret, ...record.private, ...record.owner]);
  return record.fields.map((f) => f.name).filter((f) => !blocked.has(f));
}

/** The schema or null: `type` gains "null" where that is enough; a ref, an enum or a const needs an anyOf. */
function orNull(schema: JsonSchema): JsonSchema {
  if (schema["$ref"] || schema["enum"] || schema["const"] !== undefined || schema["type"] === undefined) {
    return { anyOf: [schema, { type: "null" }] };
  }
  return { ...schema, type: [schema["type"], "null"].flat() };
}

/** Derived schemas the CRUD methods return, added to the schema namespace. */
function crudSchemas(record: RecordModel): Record<string, JsonSchema> {
  const props = record.schema["properties"] as Record<string, JsonSchema>;
  const template: Record<string, JsonSchema> = {};
  for (const field of writableFields(record)) {
    const raw = props[field] ?? {};
    const { schema, nullable } = nonNull(raw);
    template[field] = nullable ? raw : orNull(schema);
  }
  return {
    [`${record.name}NewTemplate`]: {
      title: `${record.name}NewTemplate`,
      description: `Template for a new ${record.name}: every writable field with its default or null.`,
      type: "object",
      properties: template,
      required: Object.keys(template),
      additionalProperties: false,
    },
    [`${record.name}FindResult`]: {
      title: `${record.name}FindResult`,
      type: "object",
      properties: {
        items: { type: "array", items: { $ref: `#/components/schemas/${record.name}` } },
        next_cursor: { type: ["string", "null"] },
      },
      required: ["items", "next_cursor"],
      additionalProperties: false,
    },
  };
}

const SHARED_CRUD_SCHEMAS: Record<string, JsonSchema> = {
  SidListResult: {
    title: "SidListResult",
    type: "object",
    properties: { sids: { type: "array", items: { type: "string" } }, next_cursor: { type: ["string", "null"] } },
    required: ["sids", "next_cursor"],
    additionalProperties: false,
  },
  RecordDeleteResult: {
    title: "RecordDeleteResult",
    type: "object",
    properties: { sid: { type: "string" }, deleted: { type: "boolean", const: true } },
    required: ["sid", "deleted"],
    additionalProperties: false,
  },
};

/**
 * Whether a key's `tools/list` shows a generic record tool: never one that cannot succeed for a key (a write of a
 * record that is not `owner` mode, any tool of a record whose rows only administrators see: keys never act as
 * one), else only when the key's patterns ask for it (`asked`).
 */
function crudListing(record: RecordModel, op: string): McpListing {
  const ownerVisible =
    record.owner.length > 0 && record.owner.every((f) => f === "partner_id" || f.endsWith("user_id"));
  if (!ownerVisible) return "never";
  const writes = op === "set" || op === "delete" || op === "new";
  if (writes && record.crud !== "owner") return "never";
  return "asked";
}

export function buildCrudMethods(
  records: RecordModel[],
  schemas: Record<string, JsonSchema>,
  context: string,
  diags: Diagnostics,
): MethodModel[] {
  const addSchema = (name: string, schema: JsonSchema, file: string) => {
    if (schemas[name]) diags.add("duplicate-schema-name", file, "", `"${name}" clashes with a schema codegen derives`);
    else schemas[name] = schema;
  };
  for (const [name, schema] of Object.entries(SHARED_CRUD_SCHEMAS)) addSchema(name, schema, "spec");
  for (const record of records) resolveFields(record, schemas, diags);
  const methods: MethodModel[] = [];
  for (const record of records) {
    if (record.crud === "none") continue;
    for (const [name, schema] of Object.entries(crudSchemas(record))) addSchema(name, schema, record.file);
    for (const op of CRUD_OPS) {
      if (op === "delete" && record.appendOnly) continue;
      const readOnly = op === "new" || op === "get" || op === "list" || op === "find";
      methods.push({
        name: `${record.lower}.${op}`,
        kind: "crud",
        owner: record.name,
        op,
        handlerName: op,
        domain: record.domain,
        summary: `${op} ${record.name}`,
        description: `${CRUD_TEXT[op]} Generic record operation; access mode \`${record.crud}\`.`,
        params: crudParams(op),
        result: crudResult(record, op),
        auth: record.crud === "admin" ? "admin" : "user",
        target: null,
        actsAs: null,
        internal: false,
        spends: false,
        visibility: null,
        callerBinding: null,
        password: null,
        audit: null,
        mcp: {
          name: `${context}_${record.lower}_${op}`,
          readOnly,
          destructive: op === "delete",
          idempotent: readOnly,
          amountParam: null,
          agentTool: true,
          listing: crudListing(record, op),
        },
        errors: { RecordError: ["NotFound", "Forbidden", "InvalidInput"] },
        aliases: [],
        file: record.file,
        pointer: "",
      });
    }
  }
  return methods;
}
