import type { ResidentStatus } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * ResidentStatus: how each value is reached and what it allows (docs/decisions.md "Resident status").
 *
 * | from | to | by |
 * |---|---|---|
 * | (none) | pending | residentservice.create, an approved reseller request or KYB (createResident) |
 * | pending | active | activation: registrationservice.activate_if_complete, confirm_kyc, creditservice.activate_resident |
 * | active | expired | the expiry sweep, once subscription_end_date has passed (reads show it at once) |
 * | expired | active | a renewal (paymentservice.initiate_renewal) whose new end lies ahead |
 * | pending, active, expired | suspended | residentservice.suspend (administrator, AdminAction) |
 * | suspended | pending, active or expired | residentservice.reinstate (administrator, AdminAction): where its dates put it |
 */

export type ResidentAction =
  | "read"
  | "update_profile"
  | "update_subscription"
  | "set_anonymity"
  | "delete"
  | "activate"
  | "renew"
  | "register"
  | "act";

/**
 * What each status allows its owner. `act` is business as the resident elsewhere (sign documents, vote, hold company
 * roles, invoice); `register` the registration steps (KYC, registration contracts, the keypair), which a pending
 * resident takes and an active or expired one may repeat, never a suspended one.
 */
export const RESIDENT_STATUS_ALLOWS: Record<ResidentStatus, readonly ResidentAction[]> = {
  pending: ["read", "update_profile", "update_subscription", "set_anonymity", "delete", "activate", "register"],
  active: ["read", "update_profile", "update_subscription", "set_anonymity", "renew", "register", "act"],
  expired: ["read", "update_profile", "update_subscription", "set_anonymity", "renew", "register"],
  suspended: ["read", "set_anonymity"],
};

const WHY: Record<ResidentStatus, string> = {
  pending: "the resident is not active yet",
  active: "the resident is active",
  expired: "the resident's subscription has lapsed; renew it first",
  suspended: "the resident is suspended by an administrator",
};

/** Null when `status` allows `action`; otherwise the InvalidState refusal naming the status. */
export function statusRefusal(status: ResidentStatus, action: ResidentAction): Refusal<"InvalidState"> | null {
  if (RESIDENT_STATUS_ALLOWS[status].includes(action)) return null;
  return refuse("InvalidState", `${WHY[status]} (${action.replaceAll("_", " ")} is not allowed)`, { status });
}

/**
 * Whether a resident subscription may be paid for this resident now: a pending one is activated by it, an active
 * or expired one renewed; a suspended one neither (refused at initiation, so no money is taken for nothing).
 */
export function subscriptionPaymentRefusal(
  resident: { status: ResidentStatus; subscription_end_date: Date | null },
  now: Date,
): Refusal<"InvalidState"> | null {
  const status = effectiveStatus(resident, now);
  return status === "pending" ? null : statusRefusal(status, "renew");
}

/**
 * The status as of `now`: an active resident whose subscription ended is expired from its end instant on, before
 * the sweep has stored it; every other status reads as stored.
 */
export function effectiveStatus(
  resident: { status: ResidentStatus; subscription_end_date: Date | null },
  now: Date,
): ResidentStatus {
  const end = resident.subscription_end_date;
  if (resident.status === "active" && end !== null && end.getTime() <= now.getTime()) return "expired";
  return resident.status;
}

/** Where a lifted suspension leaves a resident: never activated -> pending; paid period ahead -> active; else expired. */
export function statusFromDates(
  resident: { subscription_start_date: Date | null; subscription_end_date: Date | null },
  now: Date,
): Exclude<ResidentStatus, "suspended"> {
  const end = resident.subscription_end_date;
  if (resident.subscription_start_date === null || end === null) return "pending";
  return end.getTime() > now.getTime() ? "active" : "expired";
}

/** Suspension is for residents not suspended already; reinstatement for suspended ones. */
export function suspensionRefusal(status: ResidentStatus): Refusal<"InvalidState"> | null {
  return status === "suspended" ? refuse("InvalidState", "the resident is suspended already", { status }) : null;
}

export function reinstatementRefusal(status: ResidentStatus): Refusal<"InvalidState"> | null {
  return status === "suspended" ? null : refuse("InvalidState", "the resident is not suspended", { status });
}
