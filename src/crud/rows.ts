import type { FieldSpec, RecordSpec, CrudRow as Row } from "../../generated/crud.ts";

function wireValue(field: FieldSpec, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (field.kind === "datetime")
    return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
  if (field.kind === "integer" || field.kind === "number") return typeof value === "string" ? Number(value) : value;
  return value;
}

const shown = new Map<RecordSpec, FieldSpec[]>();
const shownWithPrivate = new Map<RecordSpec, FieldSpec[]>();

/** The fields a record shows on the wire, in spec order (computed once per record): no secret, no private. */
export function wireFields(record: RecordSpec, options: { includePrivate?: boolean } = {}): FieldSpec[] {
  const cache = options.includePrivate ? shownWithPrivate : shown;
  let fields = cache.get(record);
  if (!fields) {
    const hidden = new Set([...record.secret, ...(options.includePrivate ? [] : record.private)]);
    fields = record.fields.filter((f) => !hidden.has(f.name));
    cache.set(record, fields);
  }
  return fields;
}

/** A stored row as it goes on the wire: secret and private fields left out, timestamps RFC 3339 with ms. */
export function toWire(record: RecordSpec, row: Row, options: { includePrivate?: boolean } = {}): Row {
  const out: Row = {};
  for (const field of wireFields(record, options)) out[field.name] = wireValue(field, row[field.name]);
  return out;
}

/** Converts wire values (date strings) to what the entity stores. */
export function fromWire(field: FieldSpec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.kind === "datetime") return new Date(String(value));
  return value;
}

/** The value a column takes when a create names nothing for it. */
export function initialValue(field: FieldSpec): unknown {
  if (field.default !== null && field.default !== undefined) return structuredClone(field.default);
  if (field.nullable) return null;
  switch (field.kind) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "string[]":
      return [];
    case "json":
      return {};
    case "datetime":
      return new Date(0);
  }
}
