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

export interface PayoutProvider {
  /** Accepts the payout for settlement and answers the provider's reference; throws PayoutRefused. */
  submit(payout: PayoutRequest, at: Date): Promise<{ providerRef: string }>;
  /** Where the payout stands at `at`. */
  status(providerRef: string, at: Date): Promise<PayoutState>;
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
