import { randomBytes } from "node:crypto";
import { signWebhook } from "../../auth/webhook-signature.ts";
import {
  IdentityProviderError,
  type RecoveryIdentityProvider,
  type RecoveryVerdict,
  type ReverificationRequest,
  type ReverificationSession,
} from "./provider.ts";

export const SANDBOX_IDENTITY_URL = "https://identity.sandbox.invalid/reverify";

/**
 * The default identity provider for recovery: deterministic and offline. Identities whose KYC reference starts
 * with `sandbox-unavailable` make it fail (for tests and demos of the ProviderUnavailable path).
 */
export class SandboxIdentityProvider implements RecoveryIdentityProvider {
  readonly name = "sandbox";

  async startReverification(request: ReverificationRequest): Promise<ReverificationSession> {
    if (request.kycProviderId.startsWith("sandbox-unavailable")) throw new IdentityProviderError("sandbox outage");
    const scanRef = `sbx-rec-${randomBytes(12).toString("hex")}`;
    return { scanRef, url: `${SANDBOX_IDENTITY_URL}/${scanRef}` };
  }
}

/**
 * What the sandbox provider posts back when the person finishes: a JSON-RPC call of
 * authservice.handle_recovery_webhook, signed like every provider webhook (API.md "Webhooks").
 */
export function sandboxRecoveryCallback(
  secret: string,
  verdict: RecoveryVerdict,
  now: Date,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: verdict.event_id,
    method: "authservice.handle_recovery_webhook",
    params: { data: verdict },
  });
  return { body, headers: { "x-webhook-signature": signWebhook(secret, body, Math.floor(now.getTime() / 1000)) } };
}
