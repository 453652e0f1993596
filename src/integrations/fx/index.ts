import { RpcError } from "../../rpc/errors.ts";

/** Exchange rates for converting amounts to EUR (MCP spending limits are in EUR). */
export interface FxProvider {
  /** How many EUR one unit of `currency` is worth at `at`. Refuses a currency it does not know. */
  rateToEur(currency: string, at: Date): Promise<number>;
}

/**
 * The deterministic sandbox provider (default and in tests): fixed mid-market rates, so limits and their tests do
 * not move with a market. A production provider implements the same interface.
 */
export const SANDBOX_EUR_RATES: Readonly<Record<string, number>> = {
  EUR: 1,
  USD: 0.92,
  GBP: 1.17,
  CHF: 1.04,
  TZS: 0.00036,
  KES: 0.0071,
  AED: 0.25,
  USDT: 0.92,
  USDC: 0.92,
};

export class SandboxFxProvider implements FxProvider {
  constructor(private readonly rates: Readonly<Record<string, number>> = SANDBOX_EUR_RATES) {}

  async rateToEur(currency: string, _at: Date): Promise<number> {
    const rate = this.rates[currency.toUpperCase()];
    if (rate === undefined) {
      throw RpcError.app("ApiKeyError", "ProviderRejected", `no exchange rate for ${currency}`, { currency });
    }
    return rate;
  }
}

/** Rounds half-even to cents, as money is stored (API.md "Values"). */
export function roundCents(value: number): number {
  const cents = value * 100;
  const floor = Math.floor(cents);
  const diff = cents - floor;
  const rounded = Math.abs(diff - 0.5) < 1e-9 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(cents);
  return rounded / 100;
}

export async function toEur(fx: FxProvider, amount: number, currency: string, at: Date): Promise<number> {
  if (currency.toUpperCase() === "EUR") return roundCents(amount);
  return roundCents(amount * (await fx.rateToEur(currency, at)));
}
