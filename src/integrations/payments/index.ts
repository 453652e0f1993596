import type { Config } from "../../config.ts";
import { dryPayments, providersAreDry } from "../dry-run.ts";
import type { PaymentProviders } from "./provider.ts";
import { SandboxBankTransfer } from "./sandbox-bank.ts";
import { SandboxCardProvider } from "./sandbox-card.ts";
import { SandboxChain } from "./sandbox-chain.ts";
import { SandboxMobileMoney } from "./sandbox-mobile-money.ts";

export type {
  BankInstructions,
  CardProvider,
  ChainObservation,
  Checkout,
  CryptoAsset,
  CryptoChain,
  MobileMoneyProvider,
  PaymentProviders,
  ReceivingAccount,
} from "./provider.ts";
export { PaymentProviderError } from "./provider.ts";

const sandbox: PaymentProviders = {
  mobileMoney: new SandboxMobileMoney(),
  card: new SandboxCardProvider(),
  chain: new SandboxChain(),
  bank: new SandboxBankTransfer(),
};

/** The configured payment providers (PAYMENT_PROVIDER); `sandbox` is the only set so far. In a dry run: none. */
export function paymentProviders(config: Config): PaymentProviders {
  if (providersAreDry()) return dryPayments;
  switch (config.paymentProvider) {
    case "sandbox":
      return sandbox;
  }
}
