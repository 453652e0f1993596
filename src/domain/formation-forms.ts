import type {
  CompanyType,
  EntityDraftType,
  FormFieldType,
  FormSchemaField,
  FormSchemaResult,
} from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { isSingleLine, isTextBlock } from "./text-render.ts";

/**
 * The dynamic formation forms (entitydraftservice.get_form_schema) and the check of a draft's template_data against
 * its form. One form per company type; cooperatives (coop_* types) have a form of their own. Pure: no database.
 */

export const FORM_VERSION = 1;

/** company or cooperative, from the company type (coop_* types are cooperatives). */
export function entityTypeOfCompanyType(companyType: CompanyType): EntityDraftType {
  return companyType.startsWith("coop_") ? "cooperative" : "company";
}

/** InvalidInput unless entity_type is company or cooperative and agrees with company_type. */
export function entityTypeRefusal(entityType: string, companyType: CompanyType): Refusal<"InvalidInput"> | null {
  if (entityType !== "company" && entityType !== "cooperative")
    return refuse("InvalidInput", "entity_type must be company or cooperative", { field: "entity_type" });
  if (entityTypeOfCompanyType(companyType) !== entityType)
    return refuse("InvalidInput", `company_type ${companyType} is not a ${entityType} type`, {
      field: "company_type",
    });
  return null;
}

export function formSchemaId(companyType: CompanyType): string {
  return `formation-${companyType}-v${FORM_VERSION}`;
}

type FieldSpec = Pick<FormSchemaField, "key" | "label" | "field_type" | "required"> & Partial<FormSchemaField>;

const field = (spec: FieldSpec): FormSchemaField => ({
  section: null,
  help_text: null,
  placeholder: null,
  options: [],
  default_value: null,
  min: null,
  max: null,
  max_length: spec.field_type === "text" ? 200 : spec.field_type === "textarea" ? 5000 : null,
  ...spec,
});

const options = (...values: string[]) => values.map((v) => ({ value: v, label: v.replace(/_/g, " ") }));

const INDUSTRIES = options("technology", "consulting", "trading", "finance", "media", "other");

const COMMON: FormSchemaField[] = [
  field({ key: "purpose", label: "Purpose of the entity", field_type: "textarea", required: true, section: "General" }),
  field({
    key: "registered_address",
    label: "Registered address (street)",
    field_type: "text",
    required: true,
    section: "General",
  }),
  field({ key: "registered_city", label: "City", field_type: "text", required: true, section: "General" }),
  field({
    key: "registered_country",
    label: "Country (ISO 3166-1 alpha-2 code)",
    field_type: "text",
    required: true,
    section: "General",
    placeholder: "AE",
    max_length: 2,
  }),
  field({
    key: "industry",
    label: "Industry",
    field_type: "dropdown",
    required: true,
    section: "General",
    options: INDUSTRIES,
  }),
];

const COMPANY: FormSchemaField[] = [
  ...COMMON,
  field({
    key: "share_capital",
    label: "Share capital (USD)",
    field_type: "number",
    required: true,
    section: "Shares",
    min: 1,
    max: 1_000_000_000,
  }),
  field({
    key: "total_shares",
    label: "Shares issued",
    field_type: "number",
    required: true,
    section: "Shares",
    min: 1,
    max: 1_000_000_000,
  }),
];

const COOPERATIVE: FormSchemaField[] = [
  ...COMMON,
  field({
    key: "membership_fee",
    label: "Membership fee (USD)",
    field_type: "number",
    required: true,
    section: "Membership",
    min: 0,
    max: 1_000_000,
  }),
  field({
    key: "activities",
    label: "Activities",
    field_type: "multi_select",
    required: false,
    section: "Membership",
    options: options("production", "purchasing", "services", "housing", "credit"),
  }),
  field({
    key: "open_membership",
    label: "Open to new members",
    field_type: "checkbox",
    required: false,
    section: "Membership",
    default_value: "true",
  }),
];

const TERMS = field({
  key: "accept_terms",
  label: "I accept the formation terms",
  field_type: "checkbox",
  required: true,
  section: "Terms",
  default_value: "false",
});

/** The form for a company type (every CompanyType has one). */
export function formFor(companyType: CompanyType): FormSchemaResult {
  const entityType = entityTypeOfCompanyType(companyType);
  return {
    form_schema_id: formSchemaId(companyType),
    entity_type: entityType,
    company_type: companyType,
    version: FORM_VERSION,
    title: `Formation of a ${companyType.replace(/_/g, " ")}`,
    fields: [...(entityType === "cooperative" ? COOPERATIVE : COMPANY), TERMS],
  };
}

const invalid = (key: string, message: string) => refuse("InvalidInput", message, { field: `template_data.${key}` });

function fieldRefusal(f: FormSchemaField, value: unknown): Refusal<"InvalidInput"> | null {
  const allowed = new Set(f.options.map((o) => o.value));
  const checks: Record<FormFieldType, () => string | null> = {
    text: () => textProblem(value, f),
    textarea: () => textProblem(value, f),
    number: () => {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if ((f.min !== null && value < f.min) || (f.max !== null && value > f.max))
        return `must be between ${f.min} and ${f.max}`;
      return null;
    },
    dropdown: () => (typeof value === "string" && allowed.has(value) ? null : "must be one of the options"),
    checkbox: () => {
      if (typeof value !== "boolean") return "must be true or false";
      return f.required && !value ? "must be checked" : null;
    },
    multi_select: () =>
      Array.isArray(value) &&
      value.every((v) => typeof v === "string" && allowed.has(v)) &&
      new Set(value).size === value.length
        ? null
        : "must be a list of distinct options",
  };
  const problem = checks[f.field_type]();
  return problem === null ? null : invalid(f.key, `${f.key} ${problem}`);
}

function textProblem(value: unknown, f: FormSchemaField): string | null {
  if (typeof value !== "string") return "must be text";
  if (f.required && value.trim() === "") return "must not be empty";
  if (f.max_length !== null && value.length > f.max_length) return `must be at most ${f.max_length} characters`;
  // template_data is JSON text, out of the spec's reach: the same rules as the spec's one-line and multi-line fields
  // (registered_address becomes the company's address line at activation and is printed in the formation documents).
  if (f.field_type === "text" && !isSingleLine(value)) return "must be one line without control characters";
  if (!isTextBlock(value)) return "must not contain control characters";
  return null;
}

/**
 * template_data (JSON text) checked against the form: a JSON object, only the form's keys, every required field
 * present, each value of its field's kind. The parsed object or InvalidInput naming the field.
 */
export function templateDataRefusal(companyType: CompanyType, templateData: string): Refusal<"InvalidInput"> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(templateData);
  } catch {
    return refuse("InvalidInput", "template_data is not JSON", { field: "template_data" });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return refuse("InvalidInput", "template_data must be a JSON object", { field: "template_data" });
  const values = parsed as Record<string, unknown>;
  const fields = formFor(companyType).fields;
  const known = new Set(fields.map((f) => f.key));
  const unknown = Object.keys(values).find((k) => !known.has(k));
  if (unknown !== undefined) return invalid(unknown, `${unknown} is not a field of the form`);
  for (const f of fields) {
    const value = values[f.key];
    if (value === undefined || value === null) {
      if (f.required) return invalid(f.key, `${f.key} is required`);
      continue;
    }
    const bad = fieldRefusal(f, value);
    if (bad) return bad;
  }
  return null;
}
