import type { CompanyStatus } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * CompanyStatus: how each value is reached and what it allows (docs/decisions.md "Company status, void and licence").
 *
 * | from | to | by |
 * |---|---|---|
 * | (none) | draft | a formation draft's company record before activation |
 * | draft | pending_signatures | formation: the draft is finalized and waits for signatures |
 * | draft, pending_signatures | active | activation (companyservice.create paid, or pay_and_activate) |
 * | active | inactive | the subscription lapses: the lapse sweep (src/services/shared/subscriptions/lapse-sweep.ts) |
 * | inactive | active | a renewal (initiate_company_renewal; the auto-renewal sweep renews only active ones) |
 * | active, inactive | suspended | adminservice.suspend_company (reason, AdminAction suspend_company) |
 * | suspended | active or inactive, where its dates put it | adminservice.unsuspend_company (AdminAction) |
 * | any live state | voided | adminservice.void_company (final: nothing leaves `voided`) |
 */

export type CompanyAction = "read" | "update_profile" | "renew" | "operate";

/**
 * What each status allows. `operate` is every business operation of or for the company: invoices, expenses,
 * treasury, contracts, business documents, messages, governance, roles. A voided company keeps its record for
 * reading and refuses everything else; a suspended one may only be read until an administrator lifts it.
 */
export const COMPANY_STATUS_ALLOWS: Record<CompanyStatus, readonly CompanyAction[]> = {
  draft: ["read", "update_profile"],
  pending_signatures: ["read", "update_profile"],
  active: ["read", "update_profile", "renew", "operate"],
  inactive: ["read", "update_profile", "renew"],
  suspended: ["read"],
  voided: ["read"],
};

const WHY: Record<CompanyStatus, string> = {
  draft: "the company is not active yet",
  pending_signatures: "the company is waiting for signatures",
  active: "the company is active",
  inactive: "the company's subscription has lapsed; renew it first",
  suspended: "the company is suspended by an administrator",
  voided: "the company registration was voided",
};

/** Null when `status` allows `action`; otherwise the InvalidState refusal naming the status. */
export function companyStatusRefusal(status: CompanyStatus, action: CompanyAction): Refusal<"InvalidState"> | null {
  if (COMPANY_STATUS_ALLOWS[status].includes(action)) return null;
  return refuse("InvalidState", `${WHY[status]} (${action.replaceAll("_", " ")} is not allowed)`, { status });
}

/** Whether the status is live (every status but `voided`): the states an administrator void moves from. */
export const isLiveCompanyStatus = (status: CompanyStatus): boolean => status !== "voided";

/**
 * Whether an administrator may suspend (`suspend` true) or lift the suspension of a company in `status`: only
 * companies that were activated (`active`, `inactive`) are suspended, only a `suspended` one is lifted.
 */
export function suspensionRefusal(status: CompanyStatus, suspend: boolean): Refusal<"InvalidState"> | null {
  if (suspend && (status === "active" || status === "inactive")) return null;
  if (!suspend && status === "suspended") return null;
  const why = suspend
    ? status === "suspended"
      ? "the company is already suspended"
      : status === "voided"
        ? "the company registration was voided"
        : "the company was never activated"
    : "the company is not suspended";
  return refuse("InvalidState", why, { status });
}

/**
 * Where a company lands when its suspension is lifted: where its dates put it, `active` while the subscription runs
 * (no end date, or an end after `now`), `inactive` once it has lapsed (as the lapse sweep would have moved it).
 */
export function statusAfterSuspension(subscriptionEnd: Date | null, now: Date): "active" | "inactive" {
  return subscriptionEnd === null || subscriptionEnd.getTime() > now.getTime() ? "active" : "inactive";
}
