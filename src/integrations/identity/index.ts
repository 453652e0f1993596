import type { Config } from "../../config.ts";
import { dryKyc, dryRecovery, providersAreDry } from "../dry-run.ts";
import type { KycIdentityProvider, RecoveryIdentityProvider } from "./provider.ts";
import { SandboxIdentityProvider } from "./sandbox.ts";
import { SandboxKycProvider } from "./sandbox-kyc.ts";

export type {
  KycIdentityProvider,
  KycVerificationSession,
  RecoveryIdentityProvider,
  RecoveryVerdict,
  ReverificationSession,
} from "./provider.ts";
export { IdentityProviderError } from "./provider.ts";

const sandbox = new SandboxIdentityProvider();

/** The configured identity provider for 2FA recovery; the sandbox is the only one so far. */
export function recoveryIdentityProvider(_config: Config): RecoveryIdentityProvider {
  if (providersAreDry()) return dryRecovery;
  return sandbox;
}

const sandboxKyc = new SandboxKycProvider();

/** The configured identity provider for KYC; the sandbox is the only one so far. */
export function kycIdentityProvider(_config: Config): KycIdentityProvider {
  if (providersAreDry()) return dryKyc;
  return sandboxKyc;
}
