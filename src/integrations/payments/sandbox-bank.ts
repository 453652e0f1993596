import type { BankInstructions, BankTransferRail, ChargeRequest } from "./provider.ts";

/** The default bank-transfer rail: fixed sandbox account, the payment's sid as the transfer reference. */
export class SandboxBankTransfer implements BankTransferRail {
  readonly name = "sandbox-bank";

  instructions(request: ChargeRequest): BankInstructions {
    return {
      beneficiary: "Free Zone Registry (sandbox)",
      iban: "CH93 0076 2011 6238 5295 7",
      bic: "SBXCHZZ80A",
      reference: `FZPAY-${request.paymentId}`,
    };
  }
}
