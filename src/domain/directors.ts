import { type Refusal, refuse } from "./refusal.ts";

/**
 * Directors and signing authority (issue 17, docs/decisions.md "Directors, signing authority and shareholder
 * invitations (issue 17)"): pure rules over facts the handlers load.
 */

/**
 * The board of a company: the residents holding a current `director` or `founder` role (a founder sits on the board
 * as a director does, as the `company:director` rule lets a founder act). One definition for board proposals, the
 * executor of a resolution, the last-director guard and the expense four-eyes rule (docs/decisions.md "Small
 * companies and smaller slips (issue 30)").
 */
export const BOARD_ROLES = ["director", "founder"] as const;

/** Whether `role` seats its holder on the board. */
export const isBoardRole = (role: string): boolean => (BOARD_ROLES as readonly string[]).includes(role);

/** The board's members among current role rows: each subject holding a board role, once. */
export function boardMembers(roles: readonly { role: string; subject_id: string }[]): string[] {
  return [...new Set(roles.filter((r) => isBoardRole(r.role)).map((r) => r.subject_id))];
}

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
