import type { DigitalResidentRow, ZoneCompanyRow, ZoneInvoiceRow } from "../../../generated/entities.ts";
import type { PaymentServiceHandlers } from "../../../generated/handlers/index.ts";
import type { EntityType } from "../../../generated/types.ts";
import { toCents } from "../../domain/money.ts";
import { requireCompanyOperable } from "../../repos/companies.ts";
import { findOwnResident, findResident } from "../../repos/digital-residents.ts";
import { findInvoice } from "../../repos/invoice-payments.ts";
import { findCompany } from "../../repos/payment-entities.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { Caller, RpcContext } from "../../rpc/context.ts";
import { paymentError, providerFailure, toMobilePayResult } from "./common.ts";
import { startProviderPayment } from "./start.ts";

type Handlers = PaymentServiceHandlers<RpcContext>;

/** The invoice's recipient: its recipient user, or the account whose email it was sent to. */
function isRecipient(invoice: ZoneInvoiceRow, caller: Caller): boolean {
  if (invoice.recipient_user_id !== null) return invoice.recipient_user_id === caller.userId;
  return invoice.recipient_email !== null && invoice.recipient_email.toLowerCase() === caller.email.toLowerCase();
}

type Receiver = { type: EntityType; id: string; row: DigitalResidentRow | ZoneCompanyRow };

/** Who receives the money: the sender company, or the sender resident (named, else the sender user's own). */
async function receiverOf(ctx: RpcContext, invoice: ZoneInvoiceRow): Promise<Receiver | null> {
  if (invoice.sender_entity_type !== null) {
    const company = invoice.sender_entity_id ? await findCompany(ctx.em, invoice.sender_entity_id) : null;
    return company ? { type: "company", id: company.company_id, row: company } : null;
  }
  const resident = invoice.sender_entity_id
    ? await findResident(ctx.em, invoice.sender_entity_id)
    : invoice.sender_user_id
      ? await findOwnResident(ctx.em, { userId: invoice.sender_user_id, partnerId: null })
      : null;
  return resident ? { type: "resident", id: resident.resident_id, row: resident } : null;
}

/**
 * Starts paying an invoice by card or mobile money, to a sender with receiving enabled through that provider. The
 * amount is the invoice's total (amount + tax_amount) in its currency, from the row. The invoice is marked paid when
 * the payment is confirmed.
 */
export const initiateInvoicePayment: Handlers["initiateInvoicePayment"] = async (ctx, params) => {
  const caller = requireCaller(ctx);
  if (params.provider !== "cardpsp" && params.provider !== "mobilepay") {
    throw paymentError("InvalidInput", "provider must be cardpsp or mobilepay", { field: "provider" });
  }
  const rail = params.provider;
  const invoice = await findInvoice(ctx.em, params.invoice_id);
  if (!invoice || !isRecipient(invoice, caller)) throw paymentError.notFound("invoice");
  if (invoice.status !== "sent" && invoice.status !== "overdue") {
    throw paymentError("InvalidState", `a ${invoice.status} invoice cannot be paid`, { status: invoice.status });
  }
  const receiver = await receiverOf(ctx, invoice);
  const account = rail === "cardpsp" ? receiver?.row.cardpsp_connected_account_id : receiver?.row.mobilepay_merchant_id;
  if (!receiver?.row.payment_receiving_enabled || !account) {
    throw paymentError("InvalidState", "the invoice's sender does not receive payments through this provider");
  }
  // A company receives money only while it may operate (src/domain/company-status.ts).
  if (receiver.type === "company") {
    await requireCompanyOperable(ctx.em, receiver.id, (r) => paymentError(r.refusal, r.message, r.details));
  }
  try {
    const { row, checkoutUrl } = await startProviderPayment(ctx, {
      rail,
      userId: caller.userId,
      entityType: receiver.type,
      entityId: receiver.id,
      cents: toCents(invoice.amount) + toCents(invoice.tax_amount),
      currency: invoice.currency,
      description: `Invoice ${invoice.invoice_number}`,
      purpose: "invoice_payment",
      plan: null,
      invoiceId: invoice.sid,
    });
    return toMobilePayResult(row, checkoutUrl);
  } catch (err) {
    throw providerFailure(err);
  }
};
