import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { MULTI_LINE_PATTERN, SINGLE_LINE_PATTERN } from "../../src/domain/text-render.ts";
import { REPO_ROOT } from "./support.ts";

/**
 * The rule of docs/decisions.md "Single-line fields and escaped renders" (issue 29 item 5): every string a caller
 * sends in a field of these names (a param, or a property of a schema a param reaches) carries the pattern, so the
 * validator refuses a line break or a control character with -32602 before any handler runs. A new field of such a
 * name fails here until it declares the pattern.
 */
const SINGLE_LINE = `line1 line2 city region postal_code country name first_name last_name entity_name client_name
  legal_name vendor_name to_name bank_name account_name account_number iban swift registration_number tax_id
  license_number license_type invoice_number receipt_number jurisdiction industry nationality phone label title
  counterparty contract_type category reference method security_question website logo_url to_address
  document_number`.split(/\s+/);
const MULTI_LINE = "description body notes note comment reason message sender_message content".split(" ");

type Schema = Record<string, unknown>;
const SPEC = join(REPO_ROOT, "spec");
const read = (path: string): Schema => JSON.parse(readFileSync(path, "utf8")) as Schema;
const services = readdirSync(join(SPEC, "services")).map((f) => read(join(SPEC, "services", f)));

/** Every named schema: service components, spec/schemas, records. */
function namedSchemas(): Map<string, Schema> {
  const named = new Map<string, Schema>();
  for (const s of services) {
    const components = (s["components"] as { schemas?: Record<string, Schema> } | undefined)?.schemas ?? {};
    for (const [k, v] of Object.entries(components)) named.set(k, v);
  }
  for (const f of readdirSync(join(SPEC, "schemas"))) {
    for (const [k, v] of Object.entries((read(join(SPEC, "schemas", f))["schemas"] ?? {}) as Record<string, Schema>))
      named.set(k, v);
  }
  for (const f of readdirSync(join(SPEC, "records"))) {
    const r = read(join(SPEC, "records", f));
    named.set(r["title"] as string, r);
  }
  return named;
}

const isFreeText = (s: Schema) => {
  const t = s["type"];
  const string = t === "string" || (Array.isArray(t) && t.includes("string"));
  return string && s["enum"] === undefined && s["format"] === undefined && s["const"] === undefined;
};

/** [where, field, pattern] for every input string field of a listed name. */
function inputFields(): [string, string, unknown][] {
  const named = namedSchemas();
  const out: [string, string, unknown][] = [];
  const seen = new Set<string>();
  const field = (s: unknown, name: string, where: string) => {
    if (typeof s !== "object" || s === null || Array.isArray(s) || !isFreeText(s as Schema)) return;
    if (SINGLE_LINE.includes(name) || MULTI_LINE.includes(name)) out.push([where, name, (s as Schema)["pattern"]]);
  };
  const walk = (s: unknown, where: string): void => {
    if (Array.isArray(s)) {
      for (const v of s) walk(v, where);
      return;
    }
    if (typeof s !== "object" || s === null) return;
    const o = s as Schema;
    const ref = typeof o["$ref"] === "string" ? (o["$ref"] as string).split("/").pop() : undefined;
    if (ref && !seen.has(ref) && named.has(ref)) {
      seen.add(ref);
      walk(named.get(ref), ref);
    }
    for (const [k, v] of Object.entries(o)) {
      if (k === "properties") {
        for (const [name, p] of Object.entries(v as Record<string, unknown>)) {
          field(p, name, where);
          walk(p, where);
        }
      } else if (!["enum", "default", "examples", "const", "$ref"].includes(k)) walk(v, where);
    }
  };
  for (const s of services) {
    for (const m of s["methods"] as { name: string; params: { name: string; schema: Schema }[] }[]) {
      for (const p of m.params) {
        field(p.schema, p.name, m.name);
        walk(p.schema, m.name);
      }
    }
  }
  return out;
}

describe("single-line and multi-line fields in the spec", () => {
  const fields = inputFields();

  test("the walk reaches the fields of the issue (address lines, names, titles)", () => {
    const names = new Set(fields.map(([where, name]) => `${where}.${name}`));
    for (const f of [
      "Address.line1",
      "Address.line2",
      "Address.city",
      "CreateCompanyData.name",
      "ShareholderData.name",
    ])
      expect(names).toContain(f);
    expect(names).toContain("governanceservice.create_proposal.title");
    expect(names).toContain("entitydraftservice.create_draft.entity_name");
  });

  test("every one-line field refuses line breaks and control characters", () => {
    const wrong = fields.filter(([, n, p]) => SINGLE_LINE.includes(n) && p !== SINGLE_LINE_PATTERN);
    expect(wrong).toEqual([]);
  });

  test("every multi-line field keeps line breaks and tabs but refuses other control characters", () => {
    const wrong = fields.filter(([, n, p]) => MULTI_LINE.includes(n) && p !== MULTI_LINE_PATTERN);
    expect(wrong).toEqual([]);
  });
});
