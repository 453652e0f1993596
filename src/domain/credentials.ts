/**
 * The rules on stored credentials (sessions, refresh tokens, one-time links and challenges): values in, a
 * refusal out (null: usable). The auth modules load the row, ask here, and map a refusal to its declared error.
 */

/** A one-time token (MFA challenge, email verification or password reset link). */
export interface OneTimeToken {
  used: boolean;
  expiresAt: Date;
}

export type OneTimeRefusal = "AlreadyUsed" | "Expired";

/** Spent first, then expired: a used link says so even after its expiry. */
export function oneTimeTokenRefusal(token: OneTimeToken, now: Date): OneTimeRefusal | null {
  if (token.used) return "AlreadyUsed";
  if (token.expiresAt.getTime() <= now.getTime()) return "Expired";
  return null;
}

/** A session as bearer authentication sees it. */
export interface SessionState {
  revokedAt: Date | null;
  expiresAt: Date;
  suspended: boolean;
}

export type SessionRefusal = "Revoked" | "Expired" | "Suspended";

export function sessionRefusal(session: SessionState, now: Date): SessionRefusal | null {
  if (session.revokedAt !== null) return "Revoked";
  if (session.expiresAt.getTime() <= now.getTime()) return "Expired";
  if (session.suspended) return "Suspended";
  return null;
}

/** A session as a refresh sees it. */
export interface RefreshState {
  /** Set once the refresh token was rotated: presenting it again is a reuse. */
  replacedBy: string | null;
  revokedAt: Date | null;
  refreshExpiresAt: Date;
  suspended: boolean;
}

/** `Reused` means theft is possible: the caller revokes the whole family. */
export type RefreshRefusal = "Reused" | "Ended" | "Expired" | "Suspended";

export function refreshRefusal(session: RefreshState, now: Date): RefreshRefusal | null {
  if (session.replacedBy !== null) return "Reused";
  if (session.revokedAt !== null) return "Ended";
  if (session.refreshExpiresAt.getTime() <= now.getTime()) return "Expired";
  if (session.suspended) return "Suspended";
  return null;
}
