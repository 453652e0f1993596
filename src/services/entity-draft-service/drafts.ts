import type { EntityDraftRow } from "../../../generated/entities.ts";
import type { EntityDraftServiceHandlers } from "../../../generated/handlers/index.ts";
import type { CompanyType, ShareholderData } from "../../../generated/types.ts";
import { executorsRefusal } from "../../domain/company-profile.ts";
import { capTable, defaultDeadline, editRefusal, moveRefusal } from "../../domain/entity-drafts.ts";
import { keepDocuments, parseStoredDocuments, signingHash } from "../../domain/formation-documents.ts";
import { entityTypeRefusal, formFor, formSchemaId, templateDataRefusal } from "../../domain/formation-forms.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { findOwnResident } from "../../repos/digital-residents.ts";
import * as drafts from "../../repos/entity-drafts.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import {
  currentRound,
  draftError,
  draftResult,
  loadOwnDraft,
  loadVisibleDraft,
  refused,
  render,
  residentName,
  toDraftResult,
  versionDocuments,
} from "./common.ts";

type H = EntityDraftServiceHandlers<RpcContext>;

export const getFormSchema: H["getFormSchema"] = async (_ctx, { entity_type, company_type }) => {
  const mismatch = entityTypeRefusal(entity_type, company_type);
  if (mismatch) throw refused(mismatch);
  return formFor(company_type);
};

/** The entity type, form data and cap table checked together; the cap table as stored. */
function checkedFields(entityType: string, companyType: CompanyType, templateData: string, rows: ShareholderData[]) {
  const mismatch = entityTypeRefusal(entityType, companyType);
  if (mismatch) throw refused(mismatch);
  const data = templateDataRefusal(companyType, templateData);
  if (data) throw refused(data);
  const table = capTable(entityType === "cooperative" ? "cooperative" : "company", rows);
  if (isRefusal(table)) throw refused(table);
  return table;
}

export const createDraft: H["createDraft"] = async (ctx, params) => {
  const caller = requireCaller(ctx);
  const resident = await findOwnResident(ctx.em, caller);
  if (!resident) throw draftError("Forbidden", "creating a draft needs a resident of your own");
  const shareholders = checkedFields(
    params.entity_type,
    params.company_type,
    params.template_data,
    params.shareholders,
  );
  const notCoop = executorsRefusal(params.entity_type === "cooperative", params.due_process_executors);
  if (notCoop) throw refused(notCoop);
  const entityName = params.entity_name.trim();
  if (entityName === "" || entityName.length > 200)
    throw draftError("InvalidInput", "entity_name must be 1 to 200 characters", { field: "entity_name" });
  const now = ctx.now();
  const fields = {
    entity_type: params.entity_type === "cooperative" ? ("cooperative" as const) : ("company" as const),
    entity_name: entityName,
    company_type: params.company_type,
    creator_dr_id: resident.resident_id,
    template_data: params.template_data,
    shareholders,
  };
  const row: EntityDraftRow = {
    ...fields,
    due_process_executors: params.due_process_executors ?? null,
    sid: uuidv7(now),
    creator_user_id: caller.userId,
    rendered_documents: JSON.stringify(render(fields, 1, now)),
    status: "draft",
    document_version: 1,
    signature_deadline: defaultDeadline(now),
    total_required_signatures: 0,
    completed_signatures: 0,
    form_schema_id: formSchemaId(params.company_type),
    finalized_at: null,
    completed_at: null,
    paid_at: null,
    created_at: now,
    updated_at: now,
  };
  await drafts.insertDraft(ctx.em, row);
  return toDraftResult(row, null);
};

export const updateDraft: H["updateDraft"] = async (ctx, params) => {
  const row = await loadOwnDraft(ctx, params.draft_id);
  const state = moveRefusal("update", row.status);
  if (state) throw refused(state);
  const now = ctx.now();
  const deadline = params.signature_deadline === undefined ? null : new Date(params.signature_deadline);
  const given = [
    params.entity_name,
    params.template_data,
    params.shareholders,
    params.signature_deadline,
    params.due_process_executors,
  ];
  const edit = editRefusal({ fields: given.filter((v) => v !== undefined).length, deadline }, now);
  if (edit) throw refused(edit);
  const notCoop = executorsRefusal(row.entity_type === "cooperative", params.due_process_executors);
  if (notCoop) throw refused(notCoop);
  const entityName = params.entity_name?.trim() ?? row.entity_name;
  if (entityName === "" || entityName.length > 200)
    throw draftError("InvalidInput", "entity_name must be 1 to 200 characters", { field: "entity_name" });
  const templateData = params.template_data ?? row.template_data;
  const shareholders = checkedFields(
    row.entity_type,
    row.company_type,
    templateData,
    params.shareholders ?? row.shareholders,
  );
  const version = row.document_version + 1;
  const fields = { ...row, entity_name: entityName, template_data: templateData, shareholders };
  const invited = new Set((await drafts.invitationsOfDraft(ctx.em, row.sid)).map((i) => i.document_version));
  const documents = keepDocuments(parseStoredDocuments(row.rendered_documents), render(fields, version, now), invited);
  const moved = await drafts.updateDraftIf(
    ctx.em,
    row.sid,
    ["draft"],
    {
      entity_name: entityName,
      template_data: templateData,
      shareholders,
      ...(params.due_process_executors !== undefined ? { due_process_executors: params.due_process_executors } : {}),
      rendered_documents: JSON.stringify(documents),
      document_version: version,
      completed_signatures: 0,
      ...(deadline !== null ? { signature_deadline: deadline } : {}),
      updated_at: now,
    },
    row.document_version,
  );
  if (moved === 0) throw draftError("InvalidState", "the draft changed meanwhile; reload it");
  return draftResult(ctx, row.sid);
};

export const previewDocuments: H["previewDocuments"] = async (ctx, { draft_id }) => {
  const row = await loadVisibleDraft(ctx, draft_id);
  const documents = versionDocuments(row, row.document_version);
  return { draft_id: row.sid, document_version: row.document_version, documents, signing_hash: signingHash(documents) };
};

export const getDraftStatus: H["getDraftStatus"] = async (ctx, { draft_id }) => {
  const row = await loadVisibleDraft(ctx, draft_id);
  const round = currentRound(row, await drafts.invitationsOfDraft(ctx.em, row.sid));
  const signers = await Promise.all(
    round.map(async (i) => ({
      invitation_id: i.sid,
      invitee_email: i.invitee_email,
      invitee_name: await residentName(ctx.em, i.invitee_dr_id),
      role: i.role,
      share_units: i.share_units,
      status: i.status,
      signed: i.status === "accepted" && i.document_version === row.document_version,
      responded_at: i.responded_at === null ? null : i.responded_at.toISOString(),
    })),
  );
  return {
    draft_id: row.sid,
    status: row.status,
    document_version: row.document_version,
    signature_deadline: row.signature_deadline.toISOString(),
    total_required_signatures: row.total_required_signatures,
    completed_signatures: row.completed_signatures,
    signers,
  };
};

export const listDrafts: H["listDrafts"] = async (ctx) => {
  const rows = await drafts.draftsOfCreator(ctx.em, requireCaller(ctx).userId);
  const companies = await drafts.companiesOfDrafts(
    ctx.em,
    rows.map((r) => r.sid),
  );
  return { items: rows.map((r) => toDraftResult(r, companies.get(r.sid) ?? null)) };
};
