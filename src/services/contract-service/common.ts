import type {
  ContractRow,
  ContractSignatureRow,
  ContractTemplateRow,
  RegistrationContractRow,
} from "../../../generated/entities.ts";
import type { ContractServiceHandlers } from "../../../generated/handlers/index.ts";
import type {
  ContractResult,
  RegistrationContractMeta,
  RegistrationContractResult,
  SignContractResult,
  TemplateResult,
  TemplateSummary,
} from "../../../generated/types.ts";
import { effectiveContractStatus } from "../../domain/contracts.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/** ContractService errors and the mappers from rows to the spec's results. */

export type Handlers = ContractServiceHandlers<RpcContext>;

export const contractError = errorsFor("ContractService", "ContractError");
export const signError = errorsFor("ContractService", "SignError");

/** A company contract with its status as of `now` (expired once a pending or active contract's end has passed). */
export function toContractResult(row: ContractRow, now: Date): ContractResult {
  return {
    sid: row.sid,
    fzc_id: row.fzc_id,
    name: row.name,
    contract_type: row.contract_type,
    counterparty: row.counterparty,
    status: effectiveContractStatus(row.status, row.end_date, now),
    start_date: row.start_date.toISOString(),
    end_date: row.end_date?.toISOString() ?? null,
    total_value: row.total_value,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toContractMeta(row: Omit<RegistrationContractRow, "content">): RegistrationContractMeta {
  return {
    sid: row.sid,
    category_key: row.category_key,
    category: row.category,
    title: row.title,
    version: row.version,
    required_for: [...row.required_for],
    company_types: [...row.company_types],
    is_active: row.is_active,
    effective_from: row.effective_from?.toISOString() ?? null,
    content_hash: row.content_hash,
    updated_at: row.updated_at.toISOString(),
  };
}

export function toRegistrationContractResult(row: RegistrationContractRow): RegistrationContractResult {
  return { ...toContractMeta(row), content: row.content };
}

export function toTemplateSummary(
  row: Pick<ContractTemplateRow, "sid" | "name" | "description" | "category" | "updated_at">,
): TemplateSummary {
  return {
    sid: row.sid,
    name: row.name,
    description: row.description,
    category: row.category,
    updated_at: row.updated_at.toISOString(),
  };
}

export function toTemplateResult(row: ContractTemplateRow): TemplateResult {
  return { ...toTemplateSummary(row), content: row.content, created_at: row.created_at.toISOString() };
}

export function toSignatureResult(row: ContractSignatureRow): SignContractResult {
  return {
    sid: row.sid,
    receipt_id: row.receipt_id,
    contract_id: row.contract_id,
    contract_version: row.contract_version,
    entity_type: row.entity_type,
    entity_name: row.entity_name,
    entity_id: row.entity_id,
    signed_at: row.signed_at.toISOString(),
  };
}
