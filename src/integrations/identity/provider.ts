/** What the platform asks of an identity provider for 2FA recovery: a fresh re-verification of a known person. */
export interface ReverificationRequest {
  userId: string;
  residentId: string;
  /** The provider's reference of the identity verified at KYC; the re-verification must match it. */
  kycProviderId: string;
  now: Date;
}

export interface ReverificationSession {
  /** Provider session reference; its webhook names it (MfaRecoverySession.kycprovider_scan_ref). */
  scanRef: string;
  /** Where the user goes to re-verify. */
  url: string;
}

export class IdentityProviderError extends Error {
  constructor(reason: string) {
    super(`identity provider unavailable: ${reason}`);
    this.name = "IdentityProviderError";
  }
}

export interface RecoveryIdentityProvider {
  readonly name: string;
  startReverification(request: ReverificationRequest): Promise<ReverificationSession>;
}

/** The webhook payload (RecoveryWebhookData in the spec). */
export interface RecoveryVerdict {
  event_id: string;
  scan_ref: string;
  verdict: "approved" | "denied" | "suspected" | "pending" | "expired";
  matched_kyc_provider_id?: string | null;
  reason?: string | null;
  occurred_at: string;
}

// ---- KYC: a resident's first identity verification (kycservice) ----

/** What the platform asks of an identity provider to verify a resident. */
export interface KycVerificationRequest {
  residentId: string;
  firstName: string;
  lastName: string;
  email: string;
  /** Where the provider sends the user back when done (https), if the client gave one. */
  callbackUrl: string | null;
  now: Date;
}

export interface KycVerificationSession {
  /** Provider session reference; its webhook names it (KycSession.kycprovider_scan_ref). */
  scanRef: string;
  /** Where the user verifies. */
  url: string;
  /** The checks the provider will run, for example basic or full. */
  verificationLevel: string | null;
}

/** Throws IdentityProviderError when the provider cannot open a session. */
export interface KycIdentityProvider {
  readonly name: string;
  startVerification(request: KycVerificationRequest): Promise<KycVerificationSession>;
}
