import type { PaymentServiceHandlers } from "../../../generated/handlers/index.ts";
import { paymentProviders } from "../../integrations/payments/index.ts";
import { requireCompanyOperable } from "../../repos/companies.ts";
import {
  enableReceiving,
  findReceivingHolder,
  type ReceivingProvider,
  rejectReceiving,
  storeReceivingAccount,
} from "../../repos/payment-entities.ts";
import { recordWebhookEvent } from "../../repos/webhook-events.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { webhookDelivery } from "../../rpc/webhook-delivery.ts";
import { paymentError, providerFailure } from "./common.ts";
import { payableEntity } from "./payable.ts";

type Handlers = PaymentServiceHandlers<RpcContext>;
const WEBHOOK_PROVIDER = "payments-receiving";

function receivingProvider(value: string): ReceivingProvider {
  if (value === "cardpsp" || value === "mobilepay") return value;
  throw paymentError("InvalidInput", "provider must be cardpsp or mobilepay", { field: "provider" });
}

/**
 * Opens a receiving account with the provider for a resident the caller owns or a company it directs, and stores
 * its id. payment_receiving_enabled is left alone: only the provider's verification (handle_receiving_webhook)
 * turns it on.
 */
export const connectPaymentReceiving: Handlers["connectPaymentReceiving"] = async (ctx, params) => {
  const provider = receivingProvider(params.provider);
  const entity = await payableEntity(ctx, params.entity_type, params.entity_id);
  // A company opens receiving only while it may operate (src/domain/company-status.ts); nothing reaches the provider.
  if (entity.type === "company") {
    await requireCompanyOperable(ctx.em, entity.company.company_id, (r) =>
      paymentError(r.refusal, r.message, r.details),
    );
  }
  const providers = paymentProviders(ctx.config);
  const request = { entityType: params.entity_type, entityId: params.entity_id, now: ctx.now() };
  const account = await (provider === "cardpsp"
    ? providers.card.openConnectedAccount(request)
    : providers.mobileMoney.openMerchant(request)
  ).catch((err: unknown) => {
    throw providerFailure(err);
  });
  await storeReceivingAccount(ctx.em, params.entity_type, params.entity_id, provider, account.accountId, ctx.now());
  const row = entity.type === "resident" ? entity.resident : entity.company;
  return {
    entity_type: params.entity_type,
    entity_id: params.entity_id,
    provider,
    account_id: account.accountId,
    onboarding_url: account.onboardingUrl,
    cardpsp_connected_account_id: provider === "cardpsp" ? account.accountId : row.cardpsp_connected_account_id,
    mobilepay_merchant_id: provider === "mobilepay" ? account.accountId : row.mobilepay_merchant_id,
    payment_receiving_enabled: row.payment_receiving_enabled,
  };
};

/**
 * The provider's signed verdict on a receiving account: `verified` enables receiving for the entity holding the
 * account, `rejected` removes the account (receiving off unless the other provider's account remains), `pending`
 * changes nothing. Duplicates and replays as for the payment webhook.
 */
export const handleReceivingWebhook: Handlers["handleReceivingWebhook"] = async (ctx, { data }) => {
  const { duplicate, payloadHash } = await webhookDelivery(ctx, WEBHOOK_PROVIDER, data.event_id);
  const holder = await findReceivingHolder(ctx.em, data.provider, data.account_id);
  if (duplicate) {
    return { received: true, event_id: data.event_id, duplicate: true, matched: holder !== null, status: null };
  }
  const now = ctx.now();
  let status: string | null = null;
  if (holder && data.status === "verified") {
    await enableReceiving(ctx.em, holder, data.provider, data.account_id, now);
    status = "verified";
  } else if (holder && data.status === "rejected") {
    await rejectReceiving(ctx.em, holder, data.provider, data.account_id, now);
    status = "rejected";
  }
  await recordWebhookEvent(ctx.em, WEBHOOK_PROVIDER, data.event_id, payloadHash, now);
  return { received: true, event_id: data.event_id, duplicate: false, matched: holder !== null, status };
};
