import { type Refusal, refuse } from "./refusal.ts";
import { type OwnerPair, ownsResident } from "./resident-access.ts";

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

/** Ownership is the pair (user_id, partner_id), the same rule for companies as for residents (resident-access.ts). */
export function ownsPair(owner: OwnerPair, caller: CallerFacts): boolean {
  return ownsResident(caller, owner);
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
