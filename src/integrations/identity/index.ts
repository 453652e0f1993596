import type { Config } from "../../config.ts";
import type { RecoveryIdentityProvider } from "./provider.ts";
import { SandboxIdentityProvider } from "./sandbox.ts";

export type { RecoveryIdentityProvider, RecoveryVerdict, ReverificationSession } from "./provider.ts";
export { IdentityProviderError } from "./provider.ts";

const sandbox = new SandboxIdentityProvider();

/** The configured identity provider for 2FA recovery; the sandbox is the only one so far. */
export function recoveryIdentityProvider(_config: Config): RecoveryIdentityProvider {
  return sandbox;
}
