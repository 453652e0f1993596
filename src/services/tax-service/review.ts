import type { TaxServiceHandlers } from "../../../generated/handlers/index.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { moveRefusal, rejectionReason, TAX_FILING_MOVES, type TaxFilingMove } from "../../domain/tax.ts";
import * as filings from "../../repos/tax-filings.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { loadFiling, refused, taxError, toFilingResult } from "./common.ts";

type H = TaxServiceHandlers<RpcContext>;

/**
 * The tax authority's review of a submitted filing, performed by an administrator (x-auth admin, a session):
 * `submitted -> accepted | rejected`, each recorded as an AdminAction in the same transaction.
 */
async function review(
  ctx: RpcContext,
  filingId: string,
  move: Extract<TaxFilingMove, "accept" | "reject">,
  reason: string | null,
) {
  const row = await loadFiling(ctx, filingId);
  const bad = moveRefusal(row.status, move);
  if (bad) throw refused(bad);
  const { from, to } = TAX_FILING_MOVES[move];
  const now = ctx.now();
  const fields = reason === null ? {} : { rejection_reason: reason };
  if (!(await filings.moveFiling(ctx.em, row.sid, from, to, fields, now))) {
    throw taxError("InvalidState", "the filing is no longer submitted");
  }
  recordAdminAction(ctx, {
    action: move === "accept" ? "accept_tax_filing" : "reject_tax_filing",
    targetType: "tax_filing",
    targetId: row.sid,
    details: { company_id: row.company_id, ...(reason === null ? {} : { reason }) },
  });
  return toFilingResult({ ...row, ...fields, status: to, updated_at: now });
}

export const acceptFiling: H["acceptFiling"] = (ctx, { filing_id }) => review(ctx, filing_id, "accept", null);

export const rejectFiling: H["rejectFiling"] = async (ctx, { filing_id, reason }) => {
  const clean = rejectionReason(reason);
  if (isRefusal(clean)) throw refused(clean);
  return review(ctx, filing_id, "reject", clean);
};
