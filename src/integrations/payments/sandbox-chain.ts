import { createHash } from "node:crypto";
import { SANDBOX_EUR_RATES } from "../fx/index.ts";
import {
  type ChainObservation,
  type ChargeRequest,
  type CryptoAsset,
  type CryptoChain,
  type CryptoDeposit,
  PaymentProviderError,
} from "./provider.ts";
import { SANDBOX_DELAYED_CENTS, SANDBOX_FAILED_CENTS, sandboxStartRefusal } from "./sandbox-rules.ts";

/** Sandbox prices in USD cents per coin, and the chain's block time and required confirmations. */
const USD_CENTS_PER_COIN: Record<CryptoAsset, number> = { BTC: 6_000_000, ETH: 300_000 };
const BLOCK_SECONDS: Record<CryptoAsset, number> = { BTC: 600, ETH: 15 };
const REQUIRED: Record<CryptoAsset, number> = { BTC: 3, ETH: 12 };
const DECIMALS = 8;

const hex = (text: string) => createHash("sha256").update(text).digest("hex");

/** Cents of `currency` per coin at the sandbox's fixed rates (through EUR, like the FX sandbox). */
export function sandboxCoinRateCents(asset: CryptoAsset, currency: string): number | null {
  const usdToEur = SANDBOX_EUR_RATES["USD"];
  const toEur = SANDBOX_EUR_RATES[currency];
  if (usdToEur === undefined || toEur === undefined) return null;
  return Math.round((USD_CENTS_PER_COIN[asset] * usdToEur) / toEur);
}

/** amount / rate rounded up to 8 decimals (the payer never sends less than owed), as a decimal string. */
export function cryptoAmountFor(amountCents: number, rateCents: number): string {
  const scale = 10n ** BigInt(DECIMALS);
  const units = (BigInt(amountCents) * scale + BigInt(rateCents) - 1n) / BigInt(rateCents);
  const whole = units / scale;
  const frac = (units % scale).toString().padStart(DECIMALS, "0");
  return `${whole}.${frac}`;
}

const decimal = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/**
 * The default crypto chain: offline and deterministic. The deposit address derives from the payment id (unique per
 * payment); the payer's transaction is "mined" one block after the deposit opened and gains a confirmation per
 * block (BTC 10 minutes, ETH 15 seconds; required 3 and 12). Amount cents .93: never paid; .94: stalls at one
 * confirmation; .91/.92: the chain refuses to open the deposit (sandbox-rules.ts).
 */
export class SandboxChain implements CryptoChain {
  readonly name = "sandbox-chain";

  requiredConfirmations(asset: CryptoAsset): number {
    return REQUIRED[asset];
  }

  async openDeposit(request: ChargeRequest & { asset: CryptoAsset }): Promise<CryptoDeposit> {
    const refusal = sandboxStartRefusal(request.amountCents);
    if (refusal) throw new PaymentProviderError(refusal, "sandbox chain");
    const rate = sandboxCoinRateCents(request.asset, request.currency);
    if (rate === null) throw new PaymentProviderError("rejected", `no ${request.asset} rate for ${request.currency}`);
    const digest = hex(`deposit:${request.paymentId}`);
    const address = request.asset === "BTC" ? `tb1q${digest.slice(0, 38)}` : `0x${digest.slice(0, 40)}`;
    const cryptoAmount = cryptoAmountFor(request.amountCents, rate);
    const scheme = request.asset === "BTC" ? "bitcoin" : "ethereum";
    return { address, cryptoAmount, exchangeRate: decimal(rate), uri: `${scheme}:${address}?amount=${cryptoAmount}` };
  }

  async observe(deposit: {
    asset: CryptoAsset;
    address: string;
    cryptoAmount: string;
    amountCents: number;
    openedAt: Date;
    now: Date;
  }): Promise<ChainObservation> {
    const elapsedS = (deposit.now.getTime() - deposit.openedAt.getTime()) / 1000;
    const blocks = Math.floor(elapsedS / BLOCK_SECONDS[deposit.asset]);
    const steer = deposit.amountCents % 100;
    if (steer === SANDBOX_FAILED_CENTS || blocks < 1) {
      return { confirmations: 0, transactionHash: null, senderAddress: null };
    }
    const sender =
      deposit.asset === "BTC"
        ? `tb1qsender${hex(`from:${deposit.address}`).slice(0, 30)}`
        : `0x${hex(`from:${deposit.address}`).slice(0, 40)}`;
    return {
      confirmations: steer === SANDBOX_DELAYED_CENTS ? 1 : blocks,
      transactionHash: `0x${hex(`tx:${deposit.address}`)}`,
      senderAddress: sender,
    };
  }
}
