import type { TaxServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { getDeadlines } from "./tax-service/deadlines.ts";
import { generateDocument, listDocuments } from "./tax-service/documents.ts";
import { createFiling, getFiling, listFilings, submitFiling, updateFiling } from "./tax-service/filings.ts";
import { acceptFiling, rejectFiling } from "./tax-service/review.ts";

/**
 * TaxService (issue 15): company tax filings. Filings (create, amend, update figures, submit) in
 * tax-service/filings.ts, the administrator review in review.ts, deadlines in deadlines.ts, documents in
 * documents.ts; rules and the state machine in src/domain/tax.ts. Codegen adds a stub here for each new method.
 */
export const taxService: TaxServiceHandlers<RpcContext> = {
  createFiling,
  getFiling,
  updateFiling,
  submitFiling,
  listFilings,
  getDeadlines,
  generateDocument,
  listDocuments,
  acceptFiling,
  rejectFiling,
};
