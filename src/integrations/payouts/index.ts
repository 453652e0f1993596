import type { Config } from "../../config.ts";
import { dryPayouts, providersAreDry } from "../dry-run.ts";
import type { PayoutProvider } from "./provider.ts";
import { SandboxPayoutProvider } from "./sandbox.ts";

export type { PayoutProvider, PayoutRequest, PayoutState, PayoutStatus } from "./provider.ts";
export { PayoutRefused } from "./provider.ts";

const sandbox = new SandboxPayoutProvider();

/** The configured payout provider for external treasury transfers; the sandbox is the only one so far. */
export function payoutProvider(_config: Config): PayoutProvider {
  if (providersAreDry()) return dryPayouts;
  return sandbox;
}
