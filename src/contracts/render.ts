import type { CompanyType } from "../../generated/types.ts";
import { type RenderedTemplate, renderTemplate, type TemplateValue } from "../domain/contract-render.ts";
import type { ContractTemplateFile } from "../domain/contract-templates.ts";
import { findTemplate, formationTemplateFor } from "./templates.ts";

/** A template file filled with values: which template and version it came from, and the rendered text. */
export interface RenderedContract extends RenderedTemplate {
  key: string;
  title: string;
  version: string;
}

function filled(t: ContractTemplateFile, values: Readonly<Record<string, TemplateValue>>): RenderedContract {
  return { key: t.key, title: t.title, version: t.version, ...renderTemplate(t.body, values) };
}

/** Renders the template of a category key (`share_transfer_agreement` ...); null for an unknown key. */
export function renderContract(key: string, values: Readonly<Record<string, TemplateValue>>): RenderedContract | null {
  const t = findTemplate(key);
  return t ? filled(t, values) : null;
}

/** Renders the formation document of a company type (articles, or the charter of a cooperative). */
export function renderFormationDocument(
  type: CompanyType,
  values: Readonly<Record<string, TemplateValue>>,
): RenderedContract | null {
  const t = formationTemplateFor(type);
  return t ? filled(t, values) : null;
}
