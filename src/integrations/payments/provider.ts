/**
 * What the platform asks of its payment providers (issue 15). A production provider implements these interfaces;
 * the sandbox ones (sandbox-*.ts) do it deterministically and offline. Amounts are integer cents of `currency`.
 */

export class PaymentProviderError extends Error {
  constructor(
    readonly kind: "unavailable" | "rejected",
    reason: string,
  ) {
    super(`payment provider ${kind}: ${reason}`);
    this.name = "PaymentProviderError";
  }
}

export interface ChargeRequest {
  /** The Payment's sid: the provider echoes it and tests use it as the reference. */
  paymentId: string;
  amountCents: number;
  currency: string;
  description: string;
  now: Date;
}

export interface Checkout {
  /** The provider's id of the order or payment (the webhook names it as order_id). */
  orderId: string;
  /** Where the payer confirms; null when the payer confirms on the phone. */
  checkoutUrl: string | null;
}

export interface ReceivingAccount {
  accountId: string;
  onboardingUrl: string | null;
}

export interface ReceivingRequest {
  entityType: "resident" | "company";
  entityId: string;
  now: Date;
}

/** Mobile money: an order the payer confirms on the phone; the verdict comes by signed webhook. */
export interface MobileMoneyProvider {
  readonly name: string;
  createOrder(request: ChargeRequest): Promise<Checkout>;
  openMerchant(request: ReceivingRequest): Promise<ReceivingAccount>;
}

/** Card provider: a hosted checkout (which saves the card), a charge of a saved card, connected accounts. */
export interface CardProvider {
  readonly name: string;
  createCheckout(request: ChargeRequest): Promise<Checkout>;
  chargeSavedCard(request: ChargeRequest & { paymentMethodId: string; customerId: string | null }): Promise<Checkout>;
  openConnectedAccount(request: ReceivingRequest): Promise<ReceivingAccount>;
}

export type CryptoAsset = "BTC" | "ETH";

export interface CryptoDeposit {
  address: string;
  /** Exact amount to send, decimal string. */
  cryptoAmount: string;
  /** Units of the fiat currency per crypto unit, decimal string. */
  exchangeRate: string;
  uri: string;
}

export interface ChainObservation {
  /** Confirmations of the deposit's transaction; 0 while none was seen. */
  confirmations: number;
  transactionHash: string | null;
  senderAddress: string | null;
}

/** A crypto chain: a deposit address per payment, then the confirmations its transaction has. */
export interface CryptoChain {
  readonly name: string;
  requiredConfirmations(asset: CryptoAsset): number;
  openDeposit(request: ChargeRequest & { asset: CryptoAsset }): Promise<CryptoDeposit>;
  observe(deposit: {
    asset: CryptoAsset;
    address: string;
    cryptoAmount: string;
    /** The fiat amount owed, in cents (the sandbox is steered by it). */
    amountCents: number;
    openedAt: Date;
    now: Date;
  }): Promise<ChainObservation>;
}

export interface BankInstructions {
  beneficiary: string;
  iban: string;
  bic: string;
  /** The transfer reference the payer must quote; the administrator matches it when confirming. */
  reference: string;
}

/** Bank transfer: instructions only; an administrator confirms the money arrived (confirm_payment). */
export interface BankTransferRail {
  readonly name: string;
  instructions(request: ChargeRequest): BankInstructions;
}

export interface PaymentProviders {
  mobileMoney: MobileMoneyProvider;
  card: CardProvider;
  chain: CryptoChain;
  bank: BankTransferRail;
}
