import type { EntityManager } from "@mikro-orm/postgresql";
import {
  CompanyRoleEntity,
  DocumentAudienceEntity,
  type DocumentAudienceRow,
  ProxyEntity,
  ZoneCompanyEntity,
} from "../../generated/entities.ts";
import {
  currentAudience,
  decideVisibility,
  relevantWindowEnd,
  type VisibilityDecision,
} from "../domain/document-visibility.ts";
import { uuidv7 } from "../domain/ids.ts";
import { COMPANY_MESSAGE_AUDIENCE_RULE, COMPANY_MESSAGE_CLASSIFICATION } from "../domain/messages.ts";
import { isProxyEffective } from "../domain/proxies.ts";
import { ownedResidentIds } from "./digital-residents.ts";

/**
 * Writes to the append-only DocumentAudience table: the visibility record of the documents a service creates.
 * A change never edits a row: a new row `supersedes` the live one (a closed window ends the document's view).
 */

export interface AudienceEntry {
  documentRef: string;
  documentType: DocumentAudienceRow["document_type"];
  companyId: string;
  classification: readonly string[];
  /** Rule name, for audit. */
  rule: string;
  relevantFrom: Date;
  createdBy: string;
}

/**
 * The audience of a new document: relevant from `relevantFrom` for its kind's window (`relevantWindowEnd`: the
 * instant it is made, or open-ended for a live kind).
 */
export function writeAudience(em: EntityManager, entry: AudienceEntry, now: Date): DocumentAudienceRow {
  return em.create(DocumentAudienceEntity, {
    sid: uuidv7(now),
    document_ref: entry.documentRef,
    document_type: entry.documentType,
    company_id: entry.companyId,
    classification: [...entry.classification],
    audience_computation: entry.rule,
    document_relevant_from: entry.relevantFrom,
    document_relevant_to: relevantWindowEnd(entry.documentType, entry.relevantFrom),
    as_of_epoch: now,
    supersedes: null,
    created_by: entry.createdBy,
    created_at: now,
    updated_at: now,
  });
}

/**
 * The audience row of a company message (the inbox is read through the visibility rule, so every writer of one,
 * a member's post or the platform's notices, writes this): relevant to the company's roles when it is posted.
 */
export function writeCompanyMessageAudience(
  em: EntityManager,
  message: { sid: string; companyId: string; createdBy: string },
  now: Date,
): DocumentAudienceRow {
  return writeAudience(
    em,
    {
      documentRef: message.sid,
      documentType: "inbox_message",
      companyId: message.companyId,
      classification: COMPANY_MESSAGE_CLASSIFICATION,
      rule: COMPANY_MESSAGE_AUDIENCE_RULE,
      relevantFrom: now,
      createdBy: message.createdBy,
    },
    now,
  );
}

/** The newest live (open-ended) audience row of a document, if any. */
export function liveAudience(
  em: EntityManager,
  documentType: DocumentAudienceRow["document_type"],
  documentRef: string,
): Promise<DocumentAudienceRow | null> {
  return em.findOne(
    DocumentAudienceEntity,
    { document_type: documentType, document_ref: documentRef, document_relevant_to: null },
    { orderBy: { sid: "desc" } },
  );
}

/**
 * Ends a document's view at `end` (a deleted document): a new row superseding the one in force, same audience. A
 * live row's window closes at `end` (past holders keep theirs); a row whose window already closed when the record
 * was made (an `issue` kind, RELEVANT_WINDOW) is superseded by an empty window, which grants nobody view: the record
 * is gone, so can_view answers as the reads do (issue 30). Nothing when the document has no row.
 */
export async function closeAudience(
  em: EntityManager,
  documentType: DocumentAudienceRow["document_type"],
  documentRef: string,
  end: Date,
  rule: string,
  createdBy: string,
): Promise<DocumentAudienceRow | null> {
  const current = currentAudience(await audienceRowsOf(em, { documentType, documentRef }));
  if (!current) return null;
  const from = current.document_relevant_from;
  return em.create(DocumentAudienceEntity, {
    sid: uuidv7(end),
    document_ref: current.document_ref,
    document_type: current.document_type,
    company_id: current.company_id,
    classification: [...current.classification],
    audience_computation: rule,
    document_relevant_from: from,
    document_relevant_to: current.document_relevant_to === null ? end : from,
    as_of_epoch: end,
    supersedes: current.sid,
    created_by: createdBy,
    created_at: end,
    updated_at: end,
  });
}

/*
 * Visibility (src/domain/document-visibility.ts): the one call other services make is `mayView(em, document,
 * subjects)`; `callerSubjects` gives the subjects a caller speaks for (its residents, the residents it holds an
 * effective Proxy for, the companies it owns, as corporate subjects).
 */

export interface DocumentKey {
  documentType: DocumentAudienceRow["document_type"];
  documentRef: string;
}

/** Every audience row of a document (any order; the rule picks the current one). */
export function audienceRowsOf(em: EntityManager, doc: DocumentKey): Promise<DocumentAudienceRow[]> {
  return em.find(
    DocumentAudienceEntity,
    { document_type: doc.documentType, document_ref: doc.documentRef },
    { orderBy: { sid: "desc" }, disableIdentityMap: true },
  );
}

/** Every audience row of a document reference whatever its kind, newest first (list_by_document). */
export function audienceRowsByRef(
  em: EntityManager,
  documentRef: string,
  limit = 1000,
): Promise<DocumentAudienceRow[]> {
  return em.find(
    DocumentAudienceEntity,
    { document_ref: documentRef },
    { orderBy: { sid: "desc" }, limit, disableIdentityMap: true },
  );
}

/** The company roles of the subjects, whatever their windows (the rule compares the windows). */
function rolesOfSubjectsIn(em: EntityManager, companyIds: string[], subjectIds: readonly string[]) {
  if (companyIds.length === 0 || subjectIds.length === 0) return Promise.resolve([]);
  return em.find(
    CompanyRoleEntity,
    { company_id: { $in: companyIds }, subject_id: { $in: [...subjectIds] } },
    { disableIdentityMap: true },
  );
}

/** Whether any of the subjects holds or held a role in the company, whatever the window (a member of any period). */
export async function heldAnyRole(
  em: EntityManager,
  companyId: string,
  subjectIds: readonly string[],
): Promise<boolean> {
  if (subjectIds.length === 0) return false;
  const row = await em.findOne(
    CompanyRoleEntity,
    { company_id: companyId, subject_id: { $in: [...subjectIds] } },
    { fields: ["sid"], disableIdentityMap: true },
  );
  return row !== null;
}

/** The visibility decision for a document and any of the subjects (one caller's subjects, or one subject). */
export async function mayView(
  em: EntityManager,
  doc: DocumentKey,
  subjectIds: readonly string[],
): Promise<VisibilityDecision> {
  const rows = await audienceRowsOf(em, doc);
  const audience = currentAudience(rows);
  const roles = audience ? await rolesOfSubjectsIn(em, [audience.company_id], subjectIds) : [];
  return decideVisibility(rows, roles, subjectIds);
}

/** The decisions for many documents of one kind at once (lists): by document ref. */
export async function mayViewMany(
  em: EntityManager,
  documentType: DocumentAudienceRow["document_type"],
  documentRefs: readonly string[],
  subjectIds: readonly string[],
): Promise<Map<string, VisibilityDecision>> {
  const out = new Map<string, VisibilityDecision>();
  if (documentRefs.length === 0) return out;
  const rows = await em.find(
    DocumentAudienceEntity,
    { document_type: documentType, document_ref: { $in: [...documentRefs] } },
    { disableIdentityMap: true },
  );
  const byRef = new Map<string, DocumentAudienceRow[]>();
  for (const row of rows) byRef.set(row.document_ref, [...(byRef.get(row.document_ref) ?? []), row]);
  const companies = [...new Set(rows.map((r) => r.company_id))];
  const roles = await rolesOfSubjectsIn(em, companies, subjectIds);
  for (const ref of documentRefs) out.set(ref, decideVisibility(byRef.get(ref) ?? [], roles, subjectIds));
  return out;
}

/**
 * The subjects a caller speaks for at `now`: the residents it owns (by the owner pair), the residents one of them
 * holds an effective Proxy for, and the companies it owns (corporate role holders).
 */
export async function callerSubjects(
  em: EntityManager,
  caller: { userId: string; partnerId: string | null },
  now: Date,
): Promise<string[]> {
  const owned = await ownedResidentIds(em, caller.userId, caller.partnerId);
  const proxies =
    owned.length === 0
      ? []
      : await em.find(
          ProxyEntity,
          { principal_dr_id: { $in: owned } },
          { fields: ["target_dr_id", "status", "valid_from", "valid_to"], disableIdentityMap: true },
        );
  const companies = await em.find(
    ZoneCompanyEntity,
    { user_id: caller.userId, partner_id: caller.partnerId },
    { fields: ["company_id"], disableIdentityMap: true },
  );
  const acting = proxies.filter((p) => isProxyEffective(p, now)).map((p) => p.target_dr_id);
  return [...new Set([...owned, ...acting, ...companies.map((c) => c.company_id)])];
}

/** The decision for a caller: `mayView` over every subject the caller speaks for (`callerSubjects`). */
export async function callerMayView(
  em: EntityManager,
  caller: { userId: string; partnerId: string | null },
  doc: DocumentKey,
  now: Date,
): Promise<VisibilityDecision> {
  return mayView(em, doc, await callerSubjects(em, caller, now));
}
