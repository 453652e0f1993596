import { createHash, randomBytes } from "node:crypto";
import { type PayoutProvider, PayoutRefused, type PayoutRequest, type PayoutStatus } from "./provider.ts";

/** Seconds after submission at which a sandbox payout settles. */
export const SANDBOX_SETTLE_AFTER_S = 60;

/**
 * The deterministic sandbox payout provider: the beneficiary name chooses the outcome, so tests and demos can
 * reach every transfer state. `[reject]` refuses at submission, `[unavailable]` is an outage at submission,
 * `[fail]` fails at settlement, `[hold]` never settles; any other payout completes SANDBOX_SETTLE_AFTER_S seconds
 * after submission. The reference carries the outcome and the submission time, so the provider keeps no state.
 */
export class SandboxPayoutProvider implements PayoutProvider {
  async submit(payout: PayoutRequest, at: Date): Promise<{ providerRef: string }> {
    const name = payout.toName.toLowerCase();
    if (name.includes("[reject]")) throw new PayoutRefused("rejected", "the sandbox payout provider rejected it");
    if (name.includes("[unavailable]")) throw new PayoutRefused("unavailable", "the sandbox payout provider is down");
    const outcome = name.includes("[fail]") ? "fail" : name.includes("[hold]") ? "hold" : "ok";
    // A wallet address (no IBAN shape) settles on a chain: the reference says so, the hash comes at completion.
    const rails = /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(payout.toAddress) ? "bank" : "chain";
    return { providerRef: `sbxpay_${outcome}_${rails}_${at.getTime()}_${randomBytes(6).toString("hex")}` };
  }

  async status(providerRef: string, at: Date): Promise<PayoutStatus> {
    const [, outcome, rails, submitted] = providerRef.split("_");
    const pending = outcome === "hold" || at.getTime() < Number(submitted) + SANDBOX_SETTLE_AFTER_S * 1000;
    if (pending) return { state: "processing", transactionHash: null };
    if (outcome === "fail") return { state: "failed", transactionHash: null };
    const hash = rails === "chain" ? `0x${createHash("sha256").update(providerRef).digest("hex")}` : null;
    return { state: "completed", transactionHash: hash };
  }
}
