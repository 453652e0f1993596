import type { InvoiceServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { cancelInvoice, create, get, list, markPaid, remove, update } from "./invoice-service/drafts.ts";
import { deletePaymentDefault, getPaymentDefaults, setPaymentDefault } from "./invoice-service/payment-defaults.ts";
import { previewInvoiceEmail, sendDraft, sendInvoice } from "./invoice-service/sending.ts";

/**
 * InvoiceService (issue 15): drafts, reads and mark_paid in invoice-service/drafts.ts, the email with its PDF in
 * sending.ts, the caller's payment defaults in payment-defaults.ts, the overdue sweep in overdue-sweep.ts; rules in
 * src/domain/invoices.ts. Codegen adds a stub here for each new method.
 */
export const invoiceService: InvoiceServiceHandlers<RpcContext> = {
  list,
  create,
  get,
  update,
  delete: remove,
  previewInvoiceEmail,
  sendDraft,
  sendInvoice,
  markPaid,
  getPaymentDefaults,
  setPaymentDefault,
  deletePaymentDefault,
  cancelInvoice,
};
