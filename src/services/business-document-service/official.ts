import type { BusinessDocumentServiceHandlers } from "../../../generated/handlers/index.ts";
import { type Officer, renderOfficialDocument } from "../../domain/official-documents.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { holdersOf, rolesOfCompanyAt } from "../../repos/company-roles.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { recordDocument, recordIfAdmin, refused, toDocumentResult } from "./common.ts";

type Handlers = BusinessDocumentServiceHandlers<RpcContext>;

/** Founders and directors holding a role at `now`, named as the registry shows them (anonymous: the opaque id). */
async function officersAt(ctx: RpcContext, companyId: string, now: Date): Promise<Officer[]> {
  const roles = (await rolesOfCompanyAt(ctx.em, companyId, now)).filter(
    (r) => r.role === "founder" || r.role === "director",
  );
  const holders = await holdersOf(ctx.em, [...new Set(roles.map((r) => r.subject_id))]);
  const officers = roles.map((r): Officer => {
    const h = holders.get(r.subject_id);
    const display = h && !h.anonymous ? h.name : (r.holder_external_id ?? h?.externalId ?? "undisclosed holder");
    return { role: r.role as Officer["role"], display };
  });
  return officers.sort((a, b) => a.display.localeCompare(b.display));
}

/**
 * generate_official_document: the dispatcher loaded the company, checked the director role and that it operates
 * (x-target). The content is rendered from the registry record (the target row) and the founders and directors at the
 * issuing instant (business data printed on the document, not an authorization check); the document is official
 * (never deletable) and gets its audience row.
 */
export const generateOfficialDocument: Handlers["generateOfficialDocument"] = async (ctx, p) => {
  const company = ctx.target.row;
  const now = ctx.now();
  const rendered = renderOfficialDocument(
    p.document_type,
    {
      company_id: company.company_id,
      name: company.name,
      company_type: company.company_type,
      registration_number: company.registration_number,
      registered_at: company.subscription_start_date ?? company.created_at,
      address: company.address ?? null,
      license: company.license,
    },
    await officersAt(ctx, p.company_id, now),
    now,
  );
  if (isRefusal(rendered)) throw refused(rendered);
  const { row, classification } = recordDocument(
    ctx,
    p.company_id,
    {
      document_type: p.document_type,
      name: rendered.name,
      description: null,
      file_url: null,
      content: rendered.content,
      is_official: true,
      issued_date: now,
      expiry_date: rendered.expiry_date,
      uploaded_by: null,
    },
    now,
  );
  recordIfAdmin(ctx, "generate_official_document", p.company_id, {
    document_id: row.sid,
    document_type: row.document_type,
  });
  return toDocumentResult(row, classification);
};
