import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CompanyType } from "../../generated/types.ts";
import { ConfigError } from "../config.ts";
import {
  appliesToCompanyType,
  type ContractTemplateFile,
  catalogueProblems,
  parseTemplateFile,
} from "../domain/contract-templates.ts";
import { PROJECT_ROOT } from "../project-root.ts";

/**
 * The contract template files of the repository (`contracts/templates/*.md`, format in
 * src/domain/contract-templates.ts), read and validated once: createApp loads them at start, so a malformed file
 * stops the start with a message naming the file (a ConfigError, like a bad setting). The database copies
 * (RegistrationContract and ContractTemplate rows) are written from them by src/contracts/sync.ts.
 */

export const TEMPLATES_DIR = join(PROJECT_ROOT, "contracts", "templates");

export interface TemplateCatalogue {
  /** Every template, by key. */
  readonly all: readonly ContractTemplateFile[];
  /** The template of a unique category key, or null. */
  find(key: string): ContractTemplateFile | null;
  /** The `company_formation` template that applies to a company type (articles for companies, charter for coops). */
  formationTemplateFor(type: CompanyType): ContractTemplateFile | null;
}

/** Reads and validates every `*.md` file of `dir`; throws a ConfigError naming the first bad file. */
export function loadTemplateCatalogue(dir: string = TEMPLATES_DIR): TemplateCatalogue {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".md"))
      .sort();
  } catch (err) {
    throw new ConfigError(dir, `cannot be read as the contract template directory: ${(err as Error).message}`);
  }
  if (names.length === 0) throw new ConfigError(dir, "holds no contract template (*.md)");
  const all: ContractTemplateFile[] = [];
  for (const name of names) {
    const parsed = parseTemplateFile(readFileSync(join(dir, name), "utf8"));
    if (!parsed.ok) throw new ConfigError(`contract template ${join(dir, name)}`, `is malformed: ${parsed.problem}`);
    all.push(parsed.template);
  }
  const problems = catalogueProblems(all);
  if (problems.length > 0) throw new ConfigError(`contract templates in ${dir}`, `are inconsistent: ${problems[0]}`);
  all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const byKey = new Map(all.map((t) => [t.key, t]));
  return {
    all,
    find: (key) => byKey.get(key) ?? null,
    formationTemplateFor: (type) =>
      all.find((t) => t.category === "company_formation" && appliesToCompanyType(t, type)) ?? null,
  };
}

let loaded: TemplateCatalogue | null = null;

/** The repository's templates, read on first use (createApp calls it at start). */
export function contractTemplates(): TemplateCatalogue {
  loaded ??= loadTemplateCatalogue();
  return loaded;
}

/** The template of a unique category key (`terms_of_service`, `company_articles` ...), or null. */
export function findTemplate(key: string): ContractTemplateFile | null {
  return contractTemplates().find(key);
}

/** Every template of the repository, by key. */
export function listTemplates(): readonly ContractTemplateFile[] {
  return contractTemplates().all;
}

/** The formation template (category `company_formation`) for a company type: the draft documents are rendered from it. */
export function formationTemplateFor(type: CompanyType): ContractTemplateFile | null {
  return contractTemplates().formationTemplateFor(type);
}
