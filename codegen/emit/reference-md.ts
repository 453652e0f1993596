import type { JsonSchema } from "../model.ts";
import { kebabCase, refName } from "../naming.ts";

/** Markdown helpers of docs/reference/: tables, anchors, and JSON Schemas written as short type expressions. */

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) =>
    `| ${cells.map((c) => c.replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export const code = (s: string) => `\`${s}\``;

/** Spec prose as Markdown text: angle brackets (`<PREFIX>`) shown, not taken for HTML. */
export const prose = (s: string) => s.replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replaceAll(" ", "-");
}

export const servicePage = (service: string) => `services/${kebabCase(service)}.md`;
export const recordPage = (record: string) => `records/${kebabCase(record)}.md`;

/** Where a named schema is described, relative to docs/reference/: a record's page, else types.md. */
export interface Linker {
  records: ReadonlySet<string>;
  /** `../` from a page in a sub-directory, `` from index.md. */
  up: string;
}

export function linkTo(name: string, linker: Linker): string {
  const target = linker.records.has(name) ? recordPage(name) : `types.md#${anchor(name)}`;
  return `[${name}](${linker.up}${target})`;
}

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);

/** A schema as a short type expression: `string (date-time)`, `[ResidentStatus](…) \| null`, `string[]`. */
export function typeOf(schema: unknown, linker: Linker): string {
  if (!isObject(schema)) return "any";
  if (typeof schema["$ref"] === "string") {
    const name = refName(schema["$ref"]);
    return name ? linkTo(name, linker) : code(schema["$ref"]);
  }
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches)) return branches.map((b) => typeOf(b, linker)).join(" | ");
  }
  if ("const" in schema) return code(JSON.stringify(schema["const"]));
  if (Array.isArray(schema["enum"])) return schema["enum"].map((v) => code(JSON.stringify(v))).join(" | ");
  const types = Array.isArray(schema["type"])
    ? schema["type"]
    : [schema["type"] ?? (schema["properties"] ? "object" : "any")];
  return types
    .map((t) => {
      if (t === "array") return `${typeOf(schema["items"], linker)}[]`;
      if (t === "string" && typeof schema["format"] === "string") return `string (${schema["format"]})`;
      return String(t);
    })
    .join(" | ");
}

/** Value constraints in words: `1 to 200 characters`, `at least 1`, `pattern ^[A-Z]+$`. */
export function constraints(schema: unknown): string {
  if (!isObject(schema)) return "";
  const parts: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === "number" && typeof max === "number") parts.push(`${min} to ${max}${unit}`);
    else if (typeof min === "number") parts.push(`at least ${min}${unit}`);
    else if (typeof max === "number") parts.push(`at most ${max}${unit}`);
  };
  range(schema["minLength"], schema["maxLength"], " characters");
  range(schema["minimum"], schema["maximum"], "");
  range(schema["minItems"], schema["maxItems"], " items");
  if (typeof schema["pattern"] === "string") parts.push(`pattern ${code(schema["pattern"])}`);
  if (schema["default"] !== undefined) parts.push(`default ${code(JSON.stringify(schema["default"]))}`);
  const items = schema["items"];
  if (isObject(items)) {
    const inner = constraints(items);
    if (inner) parts.push(`each: ${inner}`);
  }
  return parts.join("; ");
}

/** The rows of an object schema's fields: name, type, required, description and constraints. */
export function fieldRows(schema: JsonSchema, linker: Linker): string[][] {
  const properties = (isObject(schema["properties"]) ? schema["properties"] : {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema["required"]) ? schema["required"] : []);
  return Object.entries(properties).map(([name, field]) => [
    code(name),
    typeOf(field, linker),
    required.has(name) ? "yes" : "no",
    [typeof field["description"] === "string" ? prose(field["description"]) : "", constraints(field)]
      .filter(Boolean)
      .join(" "),
  ]);
}
