import type { InvoiceServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** InvoiceService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const invoiceService: InvoiceServiceHandlers<RpcContext> = {
  async list(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.list");
  },
  async create(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.create");
  },
  async get(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.get");
  },
  async update(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.update");
  },
  async delete(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.delete");
  },
  async previewInvoiceEmail(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.preview_invoice_email");
  },
  async sendDraft(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.send_draft");
  },
  async sendInvoice(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.send_invoice");
  },
  async markPaid(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.mark_paid");
  },
  async getPaymentDefaults(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.get_payment_defaults");
  },
  async setPaymentDefault(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.set_payment_default");
  },
  async deletePaymentDefault(_ctx, _params) {
    throw RpcError.notImplemented("invoiceservice.delete_payment_default");
  },
};
