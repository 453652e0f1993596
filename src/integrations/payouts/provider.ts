/** A payout to an external wallet address or bank account (external treasury transfers). */
export interface PayoutRequest {
  transferId: string;
  amount: number;
  currency: string;
  toAddress: string;
  toName: string;
  reference: string | null;
}

export type PayoutState = "processing" | "completed" | "failed";

export interface PayoutStatus {
  state: PayoutState;
  /** Payouts to wallet addresses: the chain's transaction hash once completed; null for bank payouts. */
  transactionHash: string | null;
}

export interface PayoutProvider {
  /** Accepts the payout for settlement and answers the provider's reference; throws PayoutRefused. */
  submit(payout: PayoutRequest, at: Date): Promise<{ providerRef: string }>;
  /** Where the payout stands at `at`, with the on-chain hash once a payout to a wallet address completed. */
  status(providerRef: string, at: Date): Promise<PayoutStatus>;
}

/** The provider said no (`rejected`: this payout never will; `unavailable`: try again later). */
export class PayoutRefused extends Error {
  constructor(
    readonly reason: "rejected" | "unavailable",
    message: string,
  ) {
    super(message);
    this.name = "PayoutRefused";
  }
}
