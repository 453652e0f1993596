import { type Refusal, refuse } from "./refusal.ts";

/**
 * Directors and signing authority (issue 17, docs/decisions.md "Directors, signing authority and shareholder
 * invitations (issue 17)"): pure rules over facts the handlers load.
 */

/** The roles that keep a company governed: removing a director must leave at least one of them in effect. */
export const LEADING_ROLES = ["director", "founder"] as const;

/** Whether `role` keeps a company governed. */
export const isLeadingRole = (role: string): boolean => (LEADING_ROLES as readonly string[]).includes(role);

/**
 * Removing a director: refused when the company would be left with neither a current director nor a current
 * founder. `remainingLeaders` counts the current director and founder rows other than the one being closed.
 */
export function directorRemovalRefusal(remainingLeaders: number): Refusal<"InvalidState"> | null {
  if (remainingLeaders > 0) return null;
  return refuse("InvalidState", "the company would be left with neither a director nor a founder", {
    reason: "last_director",
  });
}

/** Appointing: refused when the resident already is a current director. */
export function appointmentRefusal(currentRoles: readonly string[]): Refusal<"AlreadyExists"> | null {
  return currentRoles.includes("director") ? refuse("AlreadyExists", "the resident already is a director") : null;
}

/** Granting signing authority: only to a current director. */
export function grantRefusal(currentRoles: readonly string[]): Refusal<"InvalidState"> | null {
  return currentRoles.includes("director")
    ? null
    : refuse("InvalidState", "signing authority is granted only to a current director", { reason: "not_director" });
}
