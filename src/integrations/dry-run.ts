import { AsyncLocalStorage } from "node:async_hooks";
import { uuidv7 } from "../domain/ids.ts";
import type { EmailProvider } from "./email/provider.ts";
import type { KycIdentityProvider, RecoveryIdentityProvider } from "./identity/provider.ts";
import type { KybProvider } from "./kyb/provider.ts";
import type { PaymentProviders } from "./payments/provider.ts";
import type { PayoutProvider } from "./payouts/provider.ts";

/**
 * The dry-run mode of the provider interfaces (docs/decisions.md "Spending counted where money moves (issue 27)").
 * A tool call parked for its owner's approval is first run as a dry run whose writes are rolled back; inside it,
 * every provider accessor (`paymentProviders`, `payoutProvider`, `emailProvider`, `kybProvider`, the identity
 * providers, `quoteRateProvider`) answers the stand-ins below, which accept everything and reach nothing, keep no
 * state and write nothing. The scope is asynchronous context, so a handler cannot reach a provider by forgetting
 * to pass a flag along.
 */
const scope = new AsyncLocalStorage<true>();

/** Runs `work` with every provider accessor answering its dry-run stand-in. */
export function withoutProviders<T>(work: () => Promise<T>): Promise<T> {
  return scope.run(true, work);
}

export function providersAreDry(): boolean {
  return scope.getStore() === true;
}

const NAME = "dry-run";
const ref = (id: string) => `${NAME}-${id}`;
const URL = "https://dry-run.invalid/";

export const dryPayments: PaymentProviders = {
  mobileMoney: {
    name: NAME,
    createOrder: async (r) => ({ orderId: ref(r.paymentId), checkoutUrl: null }),
    openMerchant: async (r) => ({ accountId: ref(r.entityId), onboardingUrl: null }),
  },
  card: {
    name: NAME,
    createCheckout: async (r) => ({ orderId: ref(r.paymentId), checkoutUrl: URL }),
    chargeSavedCard: async (r) => ({ orderId: ref(r.paymentId), checkoutUrl: null }),
    openConnectedAccount: async (r) => ({ accountId: ref(r.entityId), onboardingUrl: URL }),
  },
  chain: {
    name: NAME,
    requiredConfirmations: () => 1,
    openDeposit: async (r) => ({ address: ref(r.paymentId), cryptoAmount: "0", exchangeRate: "0", uri: URL }),
    observe: async () => ({ confirmations: 0, transactionHash: null, senderAddress: null }),
  },
  bank: {
    name: NAME,
    instructions: (r) => ({ beneficiary: NAME, iban: "", bic: "", reference: ref(r.paymentId) }),
  },
};

export const dryPayouts: PayoutProvider = {
  submit: async (payout) => ({ providerRef: ref(payout.transferId) }),
  status: async () => ({ state: "processing", transactionHash: null }),
};

export const dryEmail: EmailProvider = {
  name: NAME,
  send: async (_writer, _message, now) => {
    const outboxId = uuidv7(now);
    return { outboxId, providerMessageId: ref(outboxId) };
  },
};

export const dryKyb: KybProvider = {
  name: NAME,
  startCheck: async (r) => ({ scanRef: ref(r.registrationId) }),
};

export const dryRecovery: RecoveryIdentityProvider = {
  name: NAME,
  startReverification: async (r) => ({ scanRef: ref(r.userId), url: URL }),
};

export const dryKyc: KycIdentityProvider = {
  name: NAME,
  startVerification: async (r) => ({ scanRef: ref(r.residentId), url: URL, verificationLevel: null }),
};

/**
 * Prices every currency at par: no rate is fetched, and nothing a dry run quotes survives it. (Typed by shape:
 * src/integrations/fx/quotes.ts, which defines QuoteRateProvider, imports this module.)
 */
export const dryQuotes: { eurValue(currency: string, at: Date): Promise<number | null> } = {
  eurValue: async () => 1,
};
