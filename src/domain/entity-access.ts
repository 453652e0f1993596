import { type Refusal, refuse } from "./refusal.ts";

/**
 * Who may do what with a resident's or company's keys, signatures and verification links (docs/decisions.md
 * "Keys and signatures"). Facts are loaded by the service (proxies, company roles); the rules are here.
 */

/** The verified caller as these rules need it. */
export interface CallerFacts {
  userId: string;
  partnerId: string | null;
  /** An administrator in a session (never an administrator's key). */
  admin: boolean;
}

/** The ownership pair of a resident or company row. */
export interface OwnerPair {
  user_id: string | null;
  partner_id: string | null;
}

/**
 * Ownership compares the pair (user_id, partner_id), never user_id alone: partner ids must be equal (absent matches
 * only absent), then the user must be the caller, or, for a partner-onboarded row without a user, the caller is one
 * of that partner's keys. So two absent user ids never match across partners, and a personal caller never owns a
 * partner's row.
 */
export function ownsPair(owner: OwnerPair, caller: CallerFacts): boolean {
  if ((owner.partner_id ?? null) !== caller.partnerId) return false;
  if (owner.user_id === caller.userId) return true;
  return owner.user_id === null && caller.partnerId !== null;
}

/** visible: may learn it exists; manages: keys, signatures, links; owns: the owner itself (public verify URL). */
export interface EntityAccess {
  visible: boolean;
  manages: boolean;
  owns: boolean;
}

/** A resident is managed by its owner only: an effective proxy and an administrator see it but do not manage it. */
export function residentAccess(resident: OwnerPair, caller: CallerFacts, holdsProxy: boolean): EntityAccess {
  const owns = ownsPair(resident, caller);
  return { owns, manages: owns, visible: owns || holdsProxy || caller.admin };
}

/**
 * A company is managed by its owner user and its current founders and directors (`roles`: the caller's current
 * CompanyRole kinds, the owner counted as founder); any current role or an administrator sees it.
 */
export function companyAccess(company: OwnerPair, caller: CallerFacts, roles: readonly string[]): EntityAccess {
  const owns = ownsPair(company, caller);
  const manages = owns || roles.includes("founder") || roles.includes("director");
  return { owns, manages, visible: manages || roles.length > 0 || caller.admin };
}

/** NotFound when the caller may not know the entity exists, NotOwner when it may but lacks `need`. */
export function accessRefusal(
  access: EntityAccess,
  need: "manages" | "owns",
  what: string,
): Refusal<"NotFound" | "NotOwner"> | null {
  if (!access.visible) return refuse("NotFound", `${what} not found`);
  if (!access[need]) {
    const who = need === "owns" ? "its owner" : "its owner (or a company's founder or director)";
    return refuse("NotOwner", `only ${who} may do this for the ${what}`);
  }
  return null;
}
