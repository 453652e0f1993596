import type { EntityManager } from "@mikro-orm/postgresql";
import { BusinessDocumentEntity, type BusinessDocumentRow } from "../../generated/entities.ts";
import type { BusinessDocumentType } from "../../generated/types.ts";

/** The BusinessDocument table, and the registry record official documents are rendered from. */

export const MAX_LIST = 1000;

export function insertBusinessDocument(em: EntityManager, row: BusinessDocumentRow): BusinessDocumentRow {
  return em.create(BusinessDocumentEntity, row);
}

/** A document by its id (sid), read fresh. */
export function findBusinessDocument(em: EntityManager, documentId: string): Promise<BusinessDocumentRow | null> {
  return em.findOne(BusinessDocumentEntity, { sid: documentId }, { disableIdentityMap: true });
}

/** The company's documents, optionally of one type, newest first, at most MAX_LIST. */
export function listCompanyDocuments(
  em: EntityManager,
  companyId: string,
  documentType: BusinessDocumentType | undefined,
): Promise<BusinessDocumentRow[]> {
  return em.find(
    BusinessDocumentEntity,
    documentType === undefined ? { company_id: companyId } : { company_id: companyId, document_type: documentType },
    { orderBy: { sid: "desc" }, limit: MAX_LIST, disableIdentityMap: true },
  );
}

/** Deletes an uploaded (non-official) document; false when it is gone or official (the row decides, not a read). */
export async function deleteUploadedDocument(em: EntityManager, documentId: string): Promise<boolean> {
  return (await em.nativeDelete(BusinessDocumentEntity, { sid: documentId, is_official: false })) === 1;
}
