import { randomBytes } from "node:crypto";
import type { KycProviderWebhookData } from "../../../generated/types.ts";
import { signWebhook } from "../../auth/webhook-signature.ts";
import {
  IdentityProviderError,
  type KycIdentityProvider,
  type KycVerificationRequest,
  type KycVerificationSession,
} from "./provider.ts";

export const SANDBOX_KYC_URL = "https://identity.sandbox.invalid/kyc";

/**
 * What the sandbox will answer for a person, chosen by a marker anywhere in the resident's first or last name
 * (case-insensitive): `sandbox-denied`, `sandbox-suspected`, `sandbox-silent` (the provider never answers, so the
 * session expires) or `sandbox-unavailable` (the provider refuses to open a session: ProviderUnavailable). Anyone
 * else is approved.
 */
export type SandboxKycOutcome = "approved" | "denied" | "suspected" | "silent";

const MARKERS = ["unavailable", "denied", "suspected", "silent"] as const;

export function sandboxKycOutcome(firstName: string, lastName: string): SandboxKycOutcome | "unavailable" {
  const name = `${firstName} ${lastName}`.toLowerCase();
  return MARKERS.find((m) => name.includes(`sandbox-${m}`)) ?? "approved";
}

/** The deterministic, offline identity provider used by default and in tests. The scan reference carries the outcome. */
export class SandboxKycProvider implements KycIdentityProvider {
  readonly name = "sandbox";

  async startVerification(request: KycVerificationRequest): Promise<KycVerificationSession> {
    const outcome = sandboxKycOutcome(request.firstName, request.lastName);
    if (outcome === "unavailable") throw new IdentityProviderError("sandbox outage");
    const scanRef = `sbx-kyc-${outcome}-${randomBytes(12).toString("hex")}`;
    return { scanRef, url: `${SANDBOX_KYC_URL}/${scanRef}`, verificationLevel: "full" };
  }
}

/** The outcome a sandbox scan reference was opened with; null for references the sandbox did not make. */
export function sandboxOutcomeOf(scanRef: string): SandboxKycOutcome | null {
  const m = /^sbx-kyc-(approved|denied|suspected|silent)-[0-9a-f]{24}$/.exec(scanRef);
  return m ? (m[1] as SandboxKycOutcome) : null;
}

/**
 * The verdict the sandbox posts for a scan reference once the person finished: approved with all three checks and
 * the sample document below, suspected with the document read but liveness doubtful, denied with nothing verified;
 * null for `silent` (it never answers) and for references it did not make. The identity reference is stable per
 * scan reference.
 */
export function sandboxKycVerdict(scanRef: string, eventId: string, now: Date): KycProviderWebhookData | null {
  const outcome = sandboxOutcomeOf(scanRef);
  if (outcome === null || outcome === "silent") return null;
  const verified = outcome !== "denied";
  return {
    event_id: eventId,
    scan_ref: scanRef,
    verdict: outcome,
    kyc_provider_id: `sbx-id-${scanRef.slice(-24)}`,
    identity_verified: verified,
    document_verified: verified,
    liveness_verified: outcome === "approved",
    verification_level: "full",
    reason: outcome === "approved" ? null : `sandbox verdict: ${outcome}`,
    personal_data: verified
      ? {
          dob: "1990-01-31",
          nationality: "TZ",
          document_number: `P${scanRef.slice(-8).toUpperCase()}`,
          document_type: "passport",
          document_expiry: "2031-01-31",
        }
      : null,
    occurred_at: now.toISOString(),
  };
}

/**
 * What the sandbox provider posts: a JSON-RPC call of kycservice.handle_kycprovider_webhook, signed like every
 * provider webhook (API.md "Webhooks").
 */
export function sandboxKycCallback(
  secret: string,
  data: KycProviderWebhookData,
  now: Date,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: data.event_id,
    method: "kycservice.handle_kycprovider_webhook",
    params: { data },
  });
  return { body, headers: { "x-webhook-signature": signWebhook(secret, body, Math.floor(now.getTime() / 1000)) } };
}
