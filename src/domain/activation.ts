import type { RegistrationFlowStatus, ResidentStatus } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";
import {
  isRenewalPlan,
  isResidentPlan,
  type RenewalPlan,
  type ResidentPlan,
  residentPlanAfterRenewal,
  subscriptionPeriod,
} from "./subscriptions.ts";

/**
 * The one activation rule (docs/decisions.md "Activation"): a pending resident becomes `active` when its owner's
 * identity, its personal info, the payment, KYC and the required contract signatures are complete. Used by
 * registrationservice.activate_if_complete (and confirm_kyc, which tries activation) with a confirmed payment, and
 * by creditservice.activate_resident with the wallet debit of the same call as the payment.
 */

/** How the first period is paid. */
export type ActivationPayment =
  /** A confirmed registration Payment (purpose resident_subscription) of this resident. */
  | { kind: "payment"; paymentId: string; plan: string | null; autoRenewal: boolean }
  /** creditservice.activate_resident: the plan's price is debited from the wallet in the activating transaction. */
  | { kind: "wallet"; plan: string };

export interface ActivationFacts {
  /** The resident's status as of now (src/domain/resident-status.ts effectiveStatus). */
  status: ResidentStatus;
  /** The owning account's email is verified. */
  identity: boolean;
  /** Name, email and phone of the resident are filled in. */
  personalInfo: boolean;
  /** Null: no confirmed payment yet. */
  payment: ActivationPayment | null;
  /** A KYC session of the resident is `completed`. */
  kyc: boolean;
  /** Every active registration contract required for residents is signed in its current version. */
  contracts: boolean;
  /** The plan and auto-renewal the resident chose (CreateResidentData, update_subscription). */
  residentPlan: string | null;
  residentAutoRenewal: boolean;
}

export const ACTIVATION_STEPS = ["identity", "personal_info", "payment", "kyc", "contracts"] as const;
/** A step still missing; `subscription_plan` when neither the payment nor the resident names a plan. */
export type MissingStep = (typeof ACTIVATION_STEPS)[number] | "subscription_plan";

export type ActivationDecision =
  | {
      activate: true;
      /** The plan of the first period (a renewal-plan code: its months). */
      periodPlan: RenewalPlan;
      /** What the resident stores as its plan: the period's own code, or its earlier choice for `1_month`. */
      storedPlan: ResidentPlan | null;
      autoRenewal: boolean;
      start: Date;
      end: Date;
    }
  | { activate: false; missing: MissingStep[] };

/** The plan the first period runs on: the payment's, else the resident's choice (for the wallet: the call's). */
function periodPlanOf(facts: ActivationFacts): RenewalPlan | null {
  const payment = facts.payment;
  const plan = payment?.kind === "wallet" ? payment.plan : (payment?.plan ?? facts.residentPlan);
  return plan !== null && isRenewalPlan(plan) ? plan : null;
}

export function missingSteps(facts: ActivationFacts): MissingStep[] {
  const missing: MissingStep[] = [];
  if (!facts.identity) missing.push("identity");
  if (!facts.personalInfo) missing.push("personal_info");
  if (facts.payment === null) missing.push("payment");
  else if (periodPlanOf(facts) === null) missing.push("subscription_plan");
  if (!facts.kyc) missing.push("kyc");
  if (!facts.contracts) missing.push("contracts");
  return missing;
}

/**
 * Whether to activate now, and with which period. Only a pending resident is activated (an active, expired or
 * suspended one is refused with InvalidState: renewals and reinstatement have their own operations); with steps
 * missing the answer lists them and nothing may change.
 */
export function decideActivation(facts: ActivationFacts, now: Date): ActivationDecision | Refusal<"InvalidState"> {
  if (facts.status !== "pending") {
    return refuse("InvalidState", `only a pending resident is activated; this one is ${facts.status}`, {
      status: facts.status,
    });
  }
  const missing = missingSteps(facts);
  const periodPlan = periodPlanOf(facts);
  if (missing.length > 0 || periodPlan === null || facts.payment === null) return { activate: false, missing };
  const { start, end } = subscriptionPeriod(now, periodPlan);
  const payment = facts.payment;
  // A payment that names its plan carries the auto-renewal choice made when paying; otherwise the resident's holds.
  const paidChoice = payment.kind === "payment" && payment.plan !== null;
  const chosen = facts.residentPlan !== null && isResidentPlan(facts.residentPlan) ? facts.residentPlan : null;
  return {
    activate: true,
    periodPlan,
    storedPlan: residentPlanAfterRenewal(periodPlan) ?? chosen,
    autoRenewal: paidChoice ? payment.autoRenewal : facts.residentAutoRenewal,
    start,
    end,
  };
}

/** The registration facts of one user and entity type, as get_status reports them. */
export interface FlowFacts {
  identity: boolean;
  personalInfo: boolean;
  payment: boolean;
  /** A payment was started and is not confirmed yet. */
  paymentPending: boolean;
  kyc: boolean;
  /** A KYC session is open (pending, in progress or in review). */
  kycPending: boolean;
  /** The resident was activated (residents) or a company of the user is active (companies). */
  registered: boolean;
}

const FLOW_ORDER: readonly RegistrationFlowStatus[] = [
  "identity_pending",
  "identity_complete",
  "personal_info_complete",
  "payment_pending",
  "payment_complete",
  "kyc_pending",
  "kyc_complete",
  "registration_complete",
];

/** The flow status the facts show: the first step not done, in the enumeration's order. */
export function flowStatusOf(f: FlowFacts): RegistrationFlowStatus {
  if (f.registered) return "registration_complete";
  if (!f.identity) return "identity_pending";
  if (!f.personalInfo) return "identity_complete";
  if (!f.payment) return f.paymentPending ? "payment_pending" : "personal_info_complete";
  if (!f.kyc) return f.kycPending ? "kyc_pending" : "payment_complete";
  return "kyc_complete";
}

/** The step flags a reported flow status stands for. */
export interface FlowSteps {
  identity: boolean;
  personalInfo: boolean;
  payment: boolean;
  kyc: boolean;
  registration: boolean;
}

/**
 * The steps done at `status`: each step before it, none after, so the flags are monotone (a later step never reads
 * done while an earlier one does not) and always agree with the status (docs/decisions.md "Email links,
 * registration steps and deletion (issue 30)").
 */
export function flowStepsOf(status: RegistrationFlowStatus): FlowSteps {
  const at = FLOW_ORDER.indexOf(status);
  return {
    identity: at >= FLOW_ORDER.indexOf("identity_complete"),
    personalInfo: at >= FLOW_ORDER.indexOf("personal_info_complete"),
    payment: at >= FLOW_ORDER.indexOf("payment_complete"),
    kyc: at >= FLOW_ORDER.indexOf("kyc_complete"),
    registration: at >= FLOW_ORDER.indexOf("registration_complete"),
  };
}

/** The later of two flow statuses: what the server records never goes back (src/services/registration-service). */
export function laterFlowStatus(a: RegistrationFlowStatus, b: RegistrationFlowStatus | null): RegistrationFlowStatus {
  if (b === null) return a;
  return FLOW_ORDER.indexOf(b) > FLOW_ORDER.indexOf(a) ? b : a;
}

/** A KYC session's status as of `now`: a pending or in-progress session past its expiry reads expired. */
export function kycStatusAsOf<S extends string>(session: { status: S; expires_at: Date }, now: Date): S | "expired" {
  const open = session.status === "pending" || session.status === "in_progress";
  return open && session.expires_at.getTime() <= now.getTime() ? "expired" : session.status;
}

/** A KYC session still waiting for the provider or for an administrator's review. */
export function kycSessionOpen(session: { status: string; expires_at: Date }, now: Date): boolean {
  const status = kycStatusAsOf(session, now);
  return status === "pending" || status === "in_progress" || status === "needs_review";
}
