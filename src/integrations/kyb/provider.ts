/** What the platform asks of a business-verification (KYB) provider: check a company in its register. */
export interface KybCheckRequest {
  registrationId: string;
  legalName: string;
  jurisdiction: string;
  registrationNumber: string;
  now: Date;
}

export interface KybCheckSession {
  /** Provider session reference; its webhook names it (ExternalCompanyRegistration.kyb_scan_ref). */
  scanRef: string;
}

export class KybProviderError extends Error {
  constructor(reason: string) {
    super(`KYB provider unavailable: ${reason}`);
    this.name = "KybProviderError";
  }
}

export interface KybProvider {
  /** Stored as kyb_provider. */
  readonly name: string;
  startCheck(request: KybCheckRequest): Promise<KybCheckSession>;
}

/** The provider's callback payload (KybWebhookData in the spec). */
export interface KybVerdict {
  event_id: string;
  scan_ref: string;
  verdict: "approved" | "denied" | "suspected" | "pending";
  reason?: string | null;
  checked_at: string;
}
