import type { BusinessDocumentResult } from "../../generated/types.ts";
import type { CallReply, Client, TestApp } from "../support/app.ts";
import { count, refusedNoWrite, sql } from "../support/helpers.ts";

/** Shared by the business document and audience tests. */

export const UNKNOWN_DOCUMENT = "01900000-0000-7000-8000-000000000000";
export const FILE = "https://files.example.org/minutes.pdf";

/** Every table a document operation may write (audit rows are checked apart: denials write them on purpose). */
export const documentWrites = (t: TestApp) => async () => ({
  documents: await sql(t, `select * from "business_document" order by sid`),
  audiences: await sql(t, `select * from "document_audience" order by sid`),
  adminActions: await count(t, "admin_action"),
});

/** The reply is the error (code, BusinessDocumentError variant) and no document, audience or admin row changed. */
export function refusedFor(t: TestApp, type = "BusinessDocumentError") {
  return (call: () => Promise<CallReply<unknown>>, code: number, variant: string) =>
    refusedNoWrite(documentWrites(t), call, code, { type, variant });
}

/** An upload by `by` as `resident`, one second after the previous call (so sids and instants order). */
export async function upload(
  t: TestApp,
  by: Client,
  companyId: string,
  resident: string,
  extra: Record<string, unknown> = {},
): Promise<BusinessDocumentResult> {
  t.clock.advance(1);
  return by.callOk("businessdocumentservice.upload_document", {
    company_id: companyId,
    document_type: "other",
    name: "Minutes",
    file_url: FILE,
    uploaded_by: resident,
    ...extra,
  });
}

/** The view_document audit rows about a document, oldest first. */
export function viewAudits(t: TestApp, documentId: string) {
  return sql<{ subject_id: string; allowed: boolean; target_type: string; context: unknown }>(
    t,
    `select subject_id, allowed, target_type, context::jsonb as context from "user_audit_log"
     where action = 'view_document' and target_ref = ? order by sid`,
    [documentId],
  );
}
