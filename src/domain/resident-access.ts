import { type Refusal, refuse } from "./refusal.ts";

/**
 * Who may see and change a resident (docs/decisions.md "Residents: ownership and access"). Facts (the row's owner
 * pair, whether the caller holds an effective Proxy for it, whether it is an administrator in a session) are loaded
 * by the service; the rules are here.
 */

export interface ResidentCaller {
  userId: string;
  partnerId: string | null;
}

export interface OwnerPair {
  user_id: string | null;
  partner_id: string | null;
}

/**
 * Ownership compares the pair (user_id, partner_id), never user_id alone: the partner ids must be equal (absent
 * matches only absent), then the user must be the caller, or, for a partner-onboarded resident (no user), the
 * caller is that partner's reseller key. Two absent user ids never match across partners, and a personal caller
 * never owns a partner's resident.
 */
export function ownsResident(caller: ResidentCaller, resident: OwnerPair): boolean {
  if ((resident.partner_id ?? null) !== caller.partnerId) return false;
  if (resident.user_id === caller.userId) return true;
  return resident.user_id === null && caller.partnerId !== null;
}

/** see: may learn it exists (get); change: profile, plan, delete; own: owner-only operations (set_anonymity). */
export interface ResidentAccess {
  see: boolean;
  change: boolean;
  own: boolean;
}

/** The owner sees, changes and owns; an administrator sees and changes; an effective proxy only sees. */
export function residentAccess(owns: boolean, admin: boolean, holdsProxy: boolean): ResidentAccess {
  return { see: owns || admin || holdsProxy, change: owns || admin, own: owns };
}

/** NotFound when the caller may not know the resident exists; NotOwner when it sees it but lacks `need`. */
export function accessRefusal(
  access: ResidentAccess,
  need: "see" | "change" | "own",
): Refusal<"NotFound" | "NotOwner"> | null {
  if (!access.see) return refuse("NotFound", "resident not found");
  if (access[need]) return null;
  return refuse("NotOwner", need === "own" ? "only the resident's owner may do this" : "a proxy may not change it");
}
