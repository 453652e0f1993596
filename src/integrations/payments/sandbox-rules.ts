/**
 * How tests and demos steer the sandbox payment providers (docs/decisions.md "Payments (issue 15)"): by the cents
 * of the amount, so no hidden state is needed.
 *   - cents .91: the provider is unavailable when the payment starts (ProviderUnavailable, nothing written);
 *   - cents .92: the provider rejects the payment when it starts (ProviderRejected, nothing written);
 *   - cents .93: the provider's verdict is `failed` (the chain never sees a transaction: the payment expires);
 *   - cents .94: the verdict is delayed: it stays `pending` (the chain stalls at one confirmation);
 *   - any other amount succeeds (the chain adds a confirmation per block).
 */
export type SandboxVerdict = "succeeded" | "failed" | "pending";

export const SANDBOX_UNAVAILABLE_CENTS = 91;
export const SANDBOX_REJECTED_CENTS = 92;
export const SANDBOX_FAILED_CENTS = 93;
export const SANDBOX_DELAYED_CENTS = 94;

export function sandboxStartRefusal(amountCents: number): "unavailable" | "rejected" | null {
  const cents = amountCents % 100;
  if (cents === SANDBOX_UNAVAILABLE_CENTS) return "unavailable";
  if (cents === SANDBOX_REJECTED_CENTS) return "rejected";
  return null;
}

/** What the sandbox reports for a payment of this amount once the payer acted. */
export function sandboxVerdict(amountCents: number): SandboxVerdict {
  const cents = amountCents % 100;
  if (cents === SANDBOX_FAILED_CENTS) return "failed";
  if (cents === SANDBOX_DELAYED_CENTS) return "pending";
  return "succeeded";
}
