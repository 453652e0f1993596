import type { CompanyType } from "../../../generated/types.ts";
import { ALL_COMPANY_TYPES, appliesToCompanyType } from "../../domain/contract-templates.ts";
import {
  activeContractByKey,
  activeContracts,
  findTemplateRow,
  listTemplateSummaries,
} from "../../repos/contract-catalogue.ts";
import {
  contractError,
  type Handlers,
  toContractMeta,
  toRegistrationContractResult,
  toTemplateResult,
  toTemplateSummary,
} from "./common.ts";

/**
 * Anonymous reads of the catalogue: ContractTemplate rows (list_templates, get_template) and the active
 * RegistrationContract versions in force (the rest). Both tables are written from the template files at start
 * (src/contracts/sync.ts).
 */

export const listTemplates: Handlers["listTemplates"] = async (ctx) => ({
  items: (await listTemplateSummaries(ctx.em)).map(toTemplateSummary),
});

export const getTemplate: Handlers["getTemplate"] = async (ctx, { template_id }) => {
  const row = await findTemplateRow(ctx.em, template_id);
  if (!row) throw contractError.notFound("contract template");
  return toTemplateResult(row);
};

export const getRequiredContracts: Handlers["getRequiredContracts"] = async (ctx, { entity_type }) => {
  const rows = await activeContracts(ctx.em, ctx.now());
  return { items: rows.filter((r) => r.required_for.includes(entity_type)).map(toRegistrationContractResult) };
};

export const getRequiredContract: Handlers["getRequiredContract"] = async (ctx, { entity_type, category_str }) => {
  const row = await activeContractByKey(ctx.em, category_str, ctx.now());
  const fits =
    row !== null &&
    (row.required_for.includes(entity_type) || (row.required_for.length === 0 && entity_type === "company"));
  if (!row || !fits) throw contractError.notFound("registration contract");
  return toRegistrationContractResult(row);
};

export const getRequiredContractsMeta: Handlers["getRequiredContractsMeta"] = async (ctx, p) => {
  const type = p.company_type;
  if (type !== undefined && !ALL_COMPANY_TYPES.includes(type as CompanyType)) {
    throw contractError("InvalidInput", `company_type must be one of ${ALL_COMPANY_TYPES.join(", ")}`, {
      field: "company_type",
    });
  }
  const rows = await activeContracts(ctx.em, ctx.now());
  const items = rows.filter(
    (r) =>
      r.required_for.includes(p.entity_type) &&
      (type === undefined || appliesToCompanyType({ companyTypes: r.company_types }, type as CompanyType)),
  );
  return { items: items.map(toContractMeta) };
};

export const listAllContracts: Handlers["listAllContracts"] = async (ctx) => ({
  items: (await activeContracts(ctx.em, ctx.now())).map(toRegistrationContractResult),
});
