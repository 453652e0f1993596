import type { Diagnostics } from "./diagnostics.ts";
import type { JsonSchema, MethodModel, SpecModel, Visibility } from "./model.ts";
import { refName } from "./naming.ts";

/**
 * `x-visibility` (issue 30): a read of company records whose answer the DocumentAudience visibility rule decides,
 * the rule documentaudienceservice.can_view answers (src/domain/document-visibility.ts). Two shapes:
 * - `{ "kind": "<DocumentKind>", "param": "<param>" }`: the param names one document (its sid); a caller none of
 *   whose subjects may view it gets NotFound.
 * - `{ "kind": "<DocumentKind>", "items": "<result field>" }`: the result's list of records (each by `sid`) keeps
 *   only those the caller may view.
 * Either way the x-target role `member` admits past holders too (the company's members of any period): which
 * records they read is the rule's decision. Parsed here, checked against the model in `checkVisibility`, enforced
 * by the dispatcher (src/rpc/visibility.ts).
 */

const KEYS = ["kind", "param", "items"];

const str = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

export function parseVisibility(value: unknown, file: string, ptr: string, diags: Diagnostics): Visibility | null {
  if (value === undefined) return null;
  const v = (value !== null && typeof value === "object" && !Array.isArray(value) ? value : {}) as JsonSchema;
  const kind = str(v["kind"]);
  const param = str(v["param"]);
  const items = str(v["items"]);
  if (kind === null || (param === null) === (items === null) || !Object.keys(v).every((k) => KEYS.includes(k))) {
    diags.add(
      "invalid-visibility",
      file,
      ptr,
      'x-visibility must be { "kind": "<DocumentKind>", "param": "<param>" } or { "kind": "<DocumentKind>", "items": "<result field>" }',
    );
    return null;
  }
  return { kind, param, items };
}

/** The result schema's property `field`, when the result is a named object schema. */
function resultProperty(m: MethodModel, model: SpecModel, field: string): JsonSchema | null {
  const result = model.schemas[m.result];
  const props = (result?.["properties"] ?? {}) as Record<string, JsonSchema>;
  const prop = props[field];
  if (!prop) return null;
  const ref = typeof prop["$ref"] === "string" ? refName(prop["$ref"]) : null;
  return ref ? (model.schemas[ref] ?? null) : prop;
}

/**
 * The kind is a DocumentKind; the param is the method's, or the items field an array of the result; the method is a
 * read with an x-target whose record reaches a company and whose role is `member` (the role the rule widens to past
 * holders); NotFound is declared.
 */
function checkOne(m: MethodModel, model: SpecModel, diags: Diagnostics): void {
  const v = m.visibility;
  if (!v) return;
  const at = (key: string) => `${m.pointer}/x-visibility${key ? `/${key}` : ""}`;
  const kinds = (model.schemas["DocumentKind"]?.["enum"] ?? []) as string[];
  if (!kinds.includes(v.kind)) {
    diags.add("invalid-visibility", m.file, at("kind"), `x-visibility.kind "${v.kind}" is not a DocumentKind`);
  }
  if (v.param && !m.params.some((p) => p.name === v.param)) {
    diags.add(
      "unknown-param",
      m.file,
      at("param"),
      `x-visibility.param names "${v.param}", which ${m.name} does not take`,
    );
  }
  if (v.items && resultProperty(m, model, v.items)?.["type"] !== "array") {
    diags.add(
      "invalid-visibility",
      m.file,
      at("items"),
      `x-visibility.items names "${v.items}", which is not an array field of ${m.result}`,
    );
  }
  if (!m.mcp.readOnly) {
    diags.add("invalid-visibility", m.file, at(""), `${m.name} has x-visibility, so it must be readOnly (a read)`);
  }
  if (!m.target?.company || m.target.role !== "member") {
    diags.add(
      "invalid-visibility",
      m.file,
      at(""),
      `${m.name} has x-visibility, so it needs an x-target whose record has an x-company and whose role is member`,
    );
  }
  const declared = new Set(Object.values(m.errors).flat());
  if (!declared.has("NotFound")) {
    diags.add(
      "target-variant",
      m.file,
      `${m.pointer}/x-errors`,
      `${m.name} has x-visibility, which refuses with NotFound: declare it in x-errors`,
    );
  }
}

export function checkVisibility(model: SpecModel, diags: Diagnostics): void {
  for (const m of model.methods) checkOne(m, model, diags);
}
