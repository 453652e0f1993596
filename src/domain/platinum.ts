import { type Refusal, refuse } from "./refusal.ts";

/**
 * Platinum membership of a cooperative (issue 30, docs/decisions.md "Corporate holders and cooperative membership
 * (issue 30)"). Seed 000 names the `platinum_member` role and counts it in cooperative voting power (one unit per
 * open founding_member and platinum_member role); it is granted only by an executed upgrade resolution: a `special`
 * proposal naming the member, passed, then executed by grant_platinum_membership. Pure: facts in, refusals out.
 */

/** The cooperative ordinary membership role (the role an invitation into a cooperative opens). */
export const MEMBER_ROLE = "founding_member";
export const PLATINUM_ROLE = "platinum_member";

/** The facts an upgrade is decided on: the company's kind and the candidate's open roles in it. */
export interface UpgradeFacts {
  cooperative: boolean;
  /** Roles the candidate holds open in the company now. */
  candidateRoles: readonly string[];
}

/** Whether `resident` may be proposed for platinum membership now. */
export function upgradeRefusal(f: UpgradeFacts): Refusal<"InvalidState" | "AlreadyExists"> | null {
  if (!f.cooperative)
    return refuse("InvalidState", "platinum membership exists only in a cooperative", { reason: "not_a_cooperative" });
  if (!f.candidateRoles.includes(MEMBER_ROLE))
    return refuse("InvalidState", "the resident is not a member of the cooperative", { reason: "not_a_member" });
  if (f.candidateRoles.includes(PLATINUM_ROLE))
    return refuse("AlreadyExists", "the member is already a platinum member");
  return null;
}

/**
 * Whether the proposal's upgrade may be granted now: it must be an upgrade proposal, `passed`, and the candidate
 * must still be a member without the platinum role (the vote was on a member; a member removed meanwhile is not
 * upgraded, and a second grant of the same standing is refused).
 */
export function grantDecision(p: {
  candidateId: string | null;
  status: string;
  candidateRoles: readonly string[];
}): { candidateId: string } | Refusal<"InvalidState" | "AlreadyExists"> {
  if (!p.candidateId)
    return refuse("InvalidState", "the proposal is not a platinum upgrade", { reason: "not_an_upgrade" });
  if (p.status !== "passed")
    return refuse("InvalidState", `only a passed upgrade is granted; this one is ${p.status}`, { status: p.status });
  return upgradeRefusal({ cooperative: true, candidateRoles: p.candidateRoles }) ?? { candidateId: p.candidateId };
}

/** A member's cooperative voting power: one unit per open founding_member and platinum_member role (seed 000). */
export function memberPower(roles: readonly string[]): number {
  return roles.filter((r) => r === MEMBER_ROLE || r === PLATINUM_ROLE).length;
}

/** The text put to the vote when the proposer gives none. */
export function upgradeDescription(residentId: string): string {
  return `Upgrade of member ${residentId} to platinum membership: a platinum_member role next to the founding_member role, one more unit of cooperative voting power.`;
}
