import type { ContractTemplateRow, RegistrationContractRow } from "../../generated/entities.ts";
import type { ContractTemplateFile } from "./contract-templates.ts";

/**
 * How the template files reach the tables (docs/decisions.md "Contracts"), decided without a database: the start-up
 * sync loads the rows, asks these planners what to change, and applies the plan in one transaction.
 *
 * RegistrationContract keeps every version: one row per (category_key, version), the file's version active and the
 * others inactive (signatures name the row they signed, so its text stays). A stored version whose text differs from
 * the file of the same version is a conflict: changed text needs a new version label.
 *
 * ContractTemplate is the catalogue (list_templates, get_template): one row per template file, matched by
 * `category` = the file's key, updated in place (nobody signs a catalogue row), removed when its file is gone.
 */

export type StoredContract = Pick<
  RegistrationContractRow,
  | "sid"
  | "category_key"
  | "version"
  | "content_hash"
  | "is_active"
  | "title"
  | "category"
  | "required_for"
  | "company_types"
  | "effective_from"
>;

export interface ContractSyncPlan {
  /** Problems that stop the start (a version's text changed without a new version label). */
  conflicts: string[];
  /** Active rows to make inactive (an older version, or a template whose file is gone). */
  deactivate: string[];
  /** Files whose version has no row yet. */
  insert: ContractTemplateFile[];
  /** Stored versions that become active again (the file went back to them). */
  activate: string[];
  /** Stored versions whose header fields changed (title, category, required_for, company_types, effective_from). */
  refresh: { sid: string; template: ContractTemplateFile }[];
}

/** Templates that are RegistrationContract rows: signed at registration or in a company's life. */
export function isRegistrationTemplate(t: Pick<ContractTemplateFile, "stage">): boolean {
  return t.stage === "creation" || t.stage === "lifecycle";
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function headerChanged(row: StoredContract, t: ContractTemplateFile): boolean {
  return (
    row.title !== t.title ||
    row.category !== t.category ||
    !sameList(row.required_for, t.requiredFor) ||
    !sameList(row.company_types, t.companyTypes) ||
    (row.effective_from?.getTime() ?? null) !== (t.effectiveFrom?.getTime() ?? null)
  );
}

export function planContractSync(
  files: readonly ContractTemplateFile[],
  rows: readonly StoredContract[],
): ContractSyncPlan {
  const plan: ContractSyncPlan = { conflicts: [], deactivate: [], insert: [], activate: [], refresh: [] };
  const registration = files.filter(isRegistrationTemplate);
  const keys = new Set(registration.map((t) => t.key));
  for (const t of registration) {
    const versions = rows.filter((r) => r.category_key === t.key);
    const same = versions.find((r) => r.version === t.version);
    if (same && same.content_hash !== t.contentHash) {
      plan.conflicts.push(
        `contract template "${t.key}" version ${t.version} differs from the text stored for that version: ` +
          "signatures refer to it, so changed text needs a new version label",
      );
      continue;
    }
    for (const r of versions) if (r.is_active && r !== same) plan.deactivate.push(r.sid);
    if (!same) plan.insert.push(t);
    else {
      if (!same.is_active) plan.activate.push(same.sid);
      if (headerChanged(same, t)) plan.refresh.push({ sid: same.sid, template: t });
    }
  }
  for (const r of rows) if (r.is_active && !keys.has(r.category_key)) plan.deactivate.push(r.sid);
  return plan;
}

export type StoredTemplate = Pick<ContractTemplateRow, "sid" | "name" | "description" | "category" | "content">;

export interface TemplateCatalogueFields {
  name: string;
  description: string;
  category: string;
  content: string;
}

export interface TemplateCataloguePlan {
  insert: TemplateCatalogueFields[];
  update: { sid: string; fields: TemplateCatalogueFields }[];
  remove: string[];
}

/** The catalogue row a template file stands for. */
export function catalogueFields(t: ContractTemplateFile): TemplateCatalogueFields {
  return { name: t.title, description: t.description, category: t.key, content: t.body };
}

export function planTemplateCatalogue(
  files: readonly ContractTemplateFile[],
  rows: readonly StoredTemplate[],
): TemplateCataloguePlan {
  const plan: TemplateCataloguePlan = { insert: [], update: [], remove: [] };
  const kept = new Set<string>();
  for (const t of files) {
    const fields = catalogueFields(t);
    const row = rows.find((r) => r.category === t.key);
    if (!row) {
      plan.insert.push(fields);
      continue;
    }
    kept.add(row.sid);
    const changed = (Object.keys(fields) as (keyof TemplateCatalogueFields)[]).some((k) => row[k] !== fields[k]);
    if (changed) plan.update.push({ sid: row.sid, fields });
  }
  for (const r of rows) if (!kept.has(r.sid)) plan.remove.push(r.sid);
  return plan;
}
