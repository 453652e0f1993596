import { nameKey } from "./name-key.ts";
import { type Refusal, refuse } from "./refusal.ts";

/** Partner management rules (designed; seed 001 names partners, discount profiles and reseller keys). */

/** A partner's name as stored: trimmed, not blank (invisibles and spaces only are blank: an empty nameKey). */
export function partnerName(raw: string): string | Refusal<"InvalidInput"> {
  const name = raw.trim();
  return nameKey(name) !== "" ? name : refuse("InvalidInput", "name must not be blank");
}

/** A discount profile must be one the deployment configures (DISCOUNT_PROFILES); absent means unchanged. */
export function discountProfileRefusal(
  profile: string | undefined,
  known: readonly string[],
): Refusal<"InvalidInput"> | null {
  if (profile === undefined || known.includes(profile)) return null;
  return refuse("InvalidInput", `unknown discount profile "${profile.slice(0, 60)}"`, {
    field: "discount_profile",
    known,
  });
}

/** New credentials are issued to active partners only. */
export function rotationRefusal(partner: { is_active: boolean }): Refusal<"InvalidState"> | null {
  return partner.is_active ? null : refuse("InvalidState", "an inactive partner gets no credentials");
}

/** Reactivation is for deactivated partners. */
export function reactivationRefusal(partner: { is_active: boolean }): Refusal<"InvalidState"> | null {
  return partner.is_active ? refuse("InvalidState", "the partner is active") : null;
}

/** At most two reseller keys are active per partner (rotation overlap): issuing one keeps the newest other. */
export const ACTIVE_RESELLER_KEYS = 2;
