/** MfaRecoverySession.status. */
export type RecoveryStatus = "pending" | "approved" | "rejected" | "expired";

export const RECOVERY_TTL_S = 30 * 60;

export interface RecoveryFacts {
  status: RecoveryStatus;
  expired: boolean;
  verdict: "approved" | "denied" | "suspected" | "pending" | "expired";
  /** The identity the provider matched, and the one verified at KYC. */
  matchedIdentity: string | null;
  knownIdentity: string | null;
}

/**
 * What a provider verdict does to a recovery session: only a pending, unexpired session moves; it is approved
 * only when the provider approved the very identity verified at KYC; a pending verdict changes nothing; any other
 * verdict rejects. Null means no change.
 */
export function recoveryTransition(facts: RecoveryFacts): RecoveryStatus | null {
  if (facts.status !== "pending") return null;
  if (facts.expired) return "expired";
  if (facts.verdict === "pending") return null;
  const sameIdentity =
    facts.matchedIdentity !== null && facts.knownIdentity !== null && facts.matchedIdentity === facts.knownIdentity;
  return facts.verdict === "approved" && sameIdentity ? "approved" : "rejected";
}

/** What poll answers: a pending session past its expiry reads as expired even before anything moved it. */
export function visibleRecoveryStatus(status: RecoveryStatus, expired: boolean): RecoveryStatus {
  return status === "pending" && expired ? "expired" : status;
}
