import type { CompanyType, EntityType, RegistrationContractCategory } from "../../generated/types.ts";
import { COMPANY_TYPES } from "./company-pricing.ts";
import { PLACEHOLDER, placeholdersOf, sha256Hex } from "./contract-render.ts";

/**
 * Contract template files (`contracts/templates/*.md`, docs/decisions.md "Contracts"): a header between two `---`
 * lines of `field: value` pairs, then the markdown body. Parsing is pure; src/contracts/templates.ts reads the files.
 *
 *   key             unique category key (a lower-case letter, then lower-case letters, digits or `_`)
 *   title           display title
 *   description     one line for the catalogue
 *   version         version label signatures record (letters, digits, `.`, `-`)
 *   stage           creation (signed at registration) | lifecycle (signed in a company's life) | company (a company
 *                   contract template, catalogue only)
 *   category        RegistrationContractCategory: required for `creation`, absent otherwise
 *   required_for    entity types, comma-separated: at least one for `creation`, none otherwise
 *   company_types   company types it applies to, comma-separated; empty or absent = all
 *   effective_from  optional ISO instant before which the contract is not offered
 */

export type TemplateStage = "creation" | "lifecycle" | "company";

export interface ContractTemplateFile {
  key: string;
  title: string;
  description: string;
  version: string;
  stage: TemplateStage;
  category: RegistrationContractCategory | null;
  requiredFor: EntityType[];
  companyTypes: CompanyType[];
  effectiveFrom: Date | null;
  /** The markdown body with its placeholders, trimmed, ending with one newline. */
  body: string;
  /** Placeholder names the body uses, in order of first appearance. */
  placeholders: string[];
  /** Lower-case hex SHA-256 of `body`. */
  contentHash: string;
}

export type ParsedTemplate = { ok: true; template: ContractTemplateFile } | { ok: false; problem: string };

const FIELDS = [
  "key",
  "title",
  "description",
  "version",
  "stage",
  "category",
  "required_for",
  "company_types",
  "effective_from",
] as const;
type Field = (typeof FIELDS)[number];

const STAGES: readonly TemplateStage[] = ["creation", "lifecycle", "company"];
const CATEGORIES: readonly RegistrationContractCategory[] = [
  "terms_of_service",
  "privacy_policy",
  "digital_residency",
  "company_formation",
];
const ENTITY_TYPES: readonly EntityType[] = ["resident", "company"];
export const ALL_COMPANY_TYPES = Object.keys(COMPANY_TYPES) as CompanyType[];

const KEY = /^[a-z][a-z0-9_]*$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.-]*$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

class Problem extends Error {}

function header(lines: readonly string[]): Map<Field, string> {
  const fields = new Map<Field, string>();
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const m = /^([a-z_]+):(.*)$/.exec(line);
    if (!m) throw new Problem(`header line ${i + 2} is not "field: value"`);
    const name = m[1] as Field;
    if (!FIELDS.includes(name)) throw new Problem(`unknown header field "${m[1]}"`);
    if (fields.has(name)) throw new Problem(`header field "${name}" is given twice`);
    fields.set(name, (m[2] ?? "").trim());
  }
  return fields;
}

function required(fields: Map<Field, string>, name: Field): string {
  const value = fields.get(name);
  if (!value) throw new Problem(`header field "${name}" is missing or empty`);
  return value;
}

function list<T extends string>(raw: string | undefined, allowed: readonly T[], name: Field): T[] {
  const items = (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!allowed.includes(item as T)) throw new Problem(`${name} has an unknown value "${item}"`);
  }
  if (new Set(items).size !== items.length) throw new Problem(`${name} repeats a value`);
  return items as T[];
}

/** Braces that are not a well-formed placeholder (`{{ Name }}`, `{{x`, `}}`) make a file malformed. */
function strayBraces(body: string): string | null {
  const rest = body.replace(PLACEHOLDER, "");
  const m = /\{\{|\}\}/.exec(rest);
  if (!m) return null;
  const line = rest.slice(0, m.index).split("\n").length;
  return `a malformed placeholder near body line ${line} (placeholders are {{lower_case_name}})`;
}

function parseOrThrow(text: string): ContractTemplateFile {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  if (lines[0]?.trim() !== "---") throw new Problem('the file must start with a "---" header line');
  const end = lines.indexOf("---", 1);
  if (end < 0) throw new Problem('the header has no closing "---" line');
  const fields = header(lines.slice(1, end));

  const key = required(fields, "key");
  if (!KEY.test(key)) throw new Problem(`key "${key}" is not lower_case_with_underscores`);
  const version = required(fields, "version");
  if (!VERSION.test(version)) throw new Problem(`version "${version}" may hold only letters, digits, "." and "-"`);
  const stage = required(fields, "stage") as TemplateStage;
  if (!STAGES.includes(stage)) throw new Problem(`stage "${stage}" is not one of ${STAGES.join(", ")}`);

  const rawCategory = fields.get("category") || null;
  if (rawCategory !== null && !CATEGORIES.includes(rawCategory as RegistrationContractCategory)) {
    throw new Problem(`category "${rawCategory}" is not a RegistrationContractCategory`);
  }
  const category = rawCategory as RegistrationContractCategory | null;
  const requiredFor = list(fields.get("required_for"), ENTITY_TYPES, "required_for");
  if (stage === "creation" && (category === null || requiredFor.length === 0)) {
    throw new Problem("a creation template needs a category and at least one required_for entity type");
  }
  if (stage !== "creation" && (category !== null || requiredFor.length > 0)) {
    throw new Problem(`a ${stage} template has no category and no required_for`);
  }

  const rawFrom = fields.get("effective_from") || null;
  if (rawFrom !== null && (!ISO_INSTANT.test(rawFrom) || Number.isNaN(Date.parse(rawFrom)))) {
    throw new Problem(`effective_from "${rawFrom}" is not an ISO instant such as 2026-01-01T00:00:00Z`);
  }

  const body = `${lines
    .slice(end + 1)
    .join("\n")
    .trim()}\n`;
  if (body.trim() === "") throw new Problem("the body is empty");
  const stray = strayBraces(body);
  if (stray) throw new Problem(stray);

  return {
    key,
    title: required(fields, "title"),
    description: required(fields, "description"),
    version,
    stage,
    category,
    requiredFor,
    companyTypes: list(fields.get("company_types"), ALL_COMPANY_TYPES, "company_types"),
    effectiveFrom: rawFrom === null ? null : new Date(rawFrom),
    body,
    placeholders: placeholdersOf(body),
    contentHash: sha256Hex(body),
  };
}

/** Parses one template file's text; a malformed file gives the first problem found. */
export function parseTemplateFile(text: string): ParsedTemplate {
  try {
    return { ok: true, template: parseOrThrow(text) };
  } catch (err) {
    if (err instanceof Problem) return { ok: false, problem: err.message };
    throw err;
  }
}

/** Problems of a set of templates taken together: category keys are unique. */
export function catalogueProblems(templates: readonly ContractTemplateFile[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const t of templates) {
    if (seen.has(t.key)) problems.push(`key "${t.key}" is used by two files`);
    seen.add(t.key);
  }
  return problems;
}

/** Whether a template applies to a company type (an empty company_types list applies to all). */
export function appliesToCompanyType(t: Pick<ContractTemplateFile, "companyTypes">, type: CompanyType): boolean {
  return t.companyTypes.length === 0 || t.companyTypes.includes(type);
}
