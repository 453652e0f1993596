import type { Config } from "../../config.ts";
import { dryQuotes, providersAreDry } from "../dry-run.ts";
import { SANDBOX_EUR_RATES } from "./index.ts";

/**
 * Exchange rates for treasury quotes: units of `to` per unit of `from`. The sandbox provider crosses the fixed
 * EUR rates of the FX sandbox (src/integrations/fx/index.ts), so quotes and their tests never move with a market.
 */
export interface QuoteRateProvider {
  /** EUR value of one unit of each currency; null for a currency the provider does not price. */
  eurValue(currency: string, at: Date): Promise<number | null>;
}

/** Thrown by a provider that cannot answer now (network, outage): the call is refused, nothing written. */
export class QuoteProviderUnavailable extends Error {
  constructor(message = "the FX rate provider is unavailable") {
    super(message);
    this.name = "QuoteProviderUnavailable";
  }
}

export class SandboxQuoteRateProvider implements QuoteRateProvider {
  constructor(private readonly rates: Readonly<Record<string, number>> = SANDBOX_EUR_RATES) {}

  async eurValue(currency: string, _at: Date): Promise<number | null> {
    return this.rates[currency] ?? null;
  }
}

const sandbox = new SandboxQuoteRateProvider();

/** The configured quote rate provider; the sandbox is the only one so far. */
export function quoteRateProvider(_config: Config): QuoteRateProvider {
  if (providersAreDry()) return dryQuotes;
  return sandbox;
}
