import type { EntityManager } from "@mikro-orm/postgresql";
import { DocumentAudienceEntity, type DocumentAudienceRow } from "../../generated/entities.ts";
import { uuidv7 } from "../domain/ids.ts";

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

/** The live audience of a new document (relevant from `relevantFrom`, open-ended). */
export function writeAudience(em: EntityManager, entry: AudienceEntry, now: Date): DocumentAudienceRow {
  return em.create(DocumentAudienceEntity, {
    sid: uuidv7(now),
    document_ref: entry.documentRef,
    document_type: entry.documentType,
    company_id: entry.companyId,
    classification: [...entry.classification],
    audience_computation: entry.rule,
    document_relevant_from: entry.relevantFrom,
    document_relevant_to: null,
    as_of_epoch: now,
    supersedes: null,
    created_by: entry.createdBy,
    created_at: now,
    updated_at: now,
  });
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
 * Ends a document's view at `end` (a deleted document): a new row superseding the live one, same audience,
 * window closed. Nothing when the document has no live row.
 */
export async function closeAudience(
  em: EntityManager,
  documentType: DocumentAudienceRow["document_type"],
  documentRef: string,
  end: Date,
  rule: string,
  createdBy: string,
): Promise<DocumentAudienceRow | null> {
  const live = await liveAudience(em, documentType, documentRef);
  if (!live) return null;
  return em.create(DocumentAudienceEntity, {
    sid: uuidv7(end),
    document_ref: live.document_ref,
    document_type: live.document_type,
    company_id: live.company_id,
    classification: [...live.classification],
    audience_computation: rule,
    document_relevant_from: live.document_relevant_from,
    document_relevant_to: end,
    as_of_epoch: end,
    supersedes: live.sid,
    created_by: createdBy,
    created_at: end,
    updated_at: end,
  });
}
