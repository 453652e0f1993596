import type { CompanyType } from "../../../generated/types.ts";
import { formationTemplateFor } from "../../contracts/templates.ts";
import type { FormationTemplate } from "../../domain/formation-documents.ts";

/** The company_formation template of a company type (articles for companies, the charter for cooperatives). */
export function formationTemplates(companyType: CompanyType): FormationTemplate[] {
  const t = formationTemplateFor(companyType);
  return t === null ? [] : [{ contract_id: t.key, name: t.title, body: t.body }];
}
