import type { ContractRow } from "../../../generated/entities.ts";
import {
  CONTRACT_AUDIENCE_RULE,
  CONTRACT_CLASSIFICATION,
  contractUpdate,
  effectiveContractStatus,
  newContractFields,
} from "../../domain/contracts.ts";
import { isRefusal } from "../../domain/refusal.ts";
import * as contracts from "../../repos/contracts.ts";
import { writeAudience } from "../../repos/document-audiences.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { contractError, type Handlers, toContractResult } from "./common.ts";

/**
 * A company's contracts. The dispatcher checked the caller's role in fzc_id (company:member to read,
 * company:director to write; an administrator's session passes, and its writes record an AdminAction) and, for the
 * writes, that the company operates (x-target operable, src/domain/company-status.ts). State moves are conditional
 * updates on the status decided on.
 */

async function loadContract(ctx: RpcContext, companyId: string, contractId: string): Promise<ContractRow> {
  const row = await contracts.findCompanyContract(ctx.em, companyId, contractId);
  if (!row) throw contractError.notFound("contract");
  return row;
}

function adminAction(ctx: RpcContext, action: string, companyId: string, details: Record<string, unknown>) {
  if (isAdminSession(ctx.caller))
    recordAdminAction(ctx, { action, targetType: "company", targetId: companyId, details });
}

export const listCompanyContracts: Handlers["listCompanyContracts"] = async (ctx, { fzc_id }) => {
  const now = ctx.now();
  return { items: (await contracts.contractsOfCompany(ctx.em, fzc_id)).map((r) => toContractResult(r, now)) };
};

export const getCompanyContract: Handlers["getCompanyContract"] = async (ctx, { fzc_id, contract_id }) =>
  toContractResult(await loadContract(ctx, fzc_id, contract_id), ctx.now());

export const createCompanyContract: Handlers["createCompanyContract"] = async (ctx, { fzc_id, data }) => {
  const caller = requireCaller(ctx);
  const fields = newContractFields(data);
  if (isRefusal(fields)) throw contractError(fields.refusal, fields.message, fields.details);
  const now = ctx.now();
  const row = await contracts.insertContract(ctx.em, fzc_id, fields, now);
  writeAudience(
    ctx.em,
    {
      documentRef: row.sid,
      documentType: "contract",
      companyId: fzc_id,
      classification: CONTRACT_CLASSIFICATION,
      rule: CONTRACT_AUDIENCE_RULE,
      relevantFrom: now,
      createdBy: caller.userId,
    },
    now,
  );
  adminAction(ctx, "create_company_contract", fzc_id, { contract_id: row.sid, name: row.name });
  return toContractResult(row, now);
};

export const updateCompanyContract: Handlers["updateCompanyContract"] = async (ctx, p) => {
  const row = await loadContract(ctx, p.fzc_id, p.contract_id);
  const now = ctx.now();
  const patch = contractUpdate(row, p.data, now);
  if (isRefusal(patch)) throw contractError(patch.refusal, patch.message, patch.details);
  if (!(await contracts.updateContractFrom(ctx.em, row.sid, row.status, patch, now))) {
    throw contractError("InvalidState", "the contract changed meanwhile; read it again");
  }
  adminAction(ctx, "update_company_contract", p.fzc_id, { contract_id: row.sid, changes: Object.keys(patch) });
  return toContractResult({ ...row, ...patch, updated_at: now }, now);
};

export const archiveCompanyContract: Handlers["archiveCompanyContract"] = async (ctx, { fzc_id, contract_id }) => {
  const row = await loadContract(ctx, fzc_id, contract_id);
  const now = ctx.now();
  if (row.status === "archived") return toContractResult(row, now);
  if (!(await contracts.archiveContract(ctx.em, row.sid, now))) {
    return toContractResult(await loadContract(ctx, fzc_id, contract_id), now);
  }
  adminAction(ctx, "archive_company_contract", fzc_id, {
    contract_id: row.sid,
    previous_status: effectiveContractStatus(row.status, row.end_date, now),
  });
  return toContractResult({ ...row, status: "archived", updated_at: now }, now);
};
