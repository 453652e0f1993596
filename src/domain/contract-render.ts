import { createHash } from "node:crypto";
import { markdownText } from "./text-render.ts";

/**
 * Rendering of contract templates (issue 16, docs/decisions.md "Contracts"). A template body is markdown with
 * `{{name}}` placeholders (`name`: a lower-case letter, then lower-case letters, digits or `_`; spaces inside the
 * braces are allowed). Rendering is one pass, so a value that itself contains `{{x}}` is never expanded again, and it
 * is deterministic: the same body and values give the same bytes (no clock, no locale, no random).
 */

/** A placeholder: `{{ entity_name }}`. */
export const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g;

/** A table value: rendered as a markdown table whose cells are plain text. */
export interface TableValue {
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
}

export type TemplateValue = string | number | TableValue;

export interface RenderedTemplate {
  /** The rendered markdown. */
  text: string;
  /** Placeholders of the body that had no value, sorted and unique: they stay in `text` as written. */
  missing: string[];
  /** Lower-case hex SHA-256 of `text` (UTF-8). */
  sha256: string;
}

/** Lower-case hex SHA-256 of a text's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A markdown table of escaped plain-text cells; a short row is padded with empty cells, a long one is cut. */
export function markdownTable(table: TableValue): string {
  const width = table.columns.length;
  const line = (cells: readonly (string | number)[]) => {
    const padded = Array.from({ length: width }, (_, i) => (cells[i] === undefined ? "" : markdownText(cells[i])));
    return `| ${padded.join(" | ")} |`;
  };
  const rule = `|${table.columns.map(() => " --- ").join("|")}|`;
  return [line(table.columns), rule, ...table.rows.map(line)].join("\n");
}

function renderValue(value: TemplateValue): string {
  return typeof value === "object" ? markdownTable(value) : markdownText(value);
}

/** The placeholder names a body uses, in order of first appearance. */
export function placeholdersOf(body: string): string[] {
  const names: string[] = [];
  for (const m of body.matchAll(PLACEHOLDER)) if (m[1] && !names.includes(m[1])) names.push(m[1]);
  return names;
}

/**
 * Fills the body's placeholders with `values`: plain text escaped by `markdownText` (src/domain/text-render.ts), or
 * tables. A placeholder without a value stays as written and is listed in `missing`, so a caller can refuse an
 * incomplete document (or show the gaps in a preview); values the body does not use are ignored.
 */
export function renderTemplate(body: string, values: Readonly<Record<string, TemplateValue>>): RenderedTemplate {
  const missing = new Set<string>();
  const text = body.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) {
      missing.add(name);
      return whole;
    }
    return renderValue(value);
  });
  return { text, missing: [...missing].sort(), sha256: sha256Hex(text) };
}
