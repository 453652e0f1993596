/**
 * Onboarding progress (CreditService.get_onboarding_status, issue 15): progressive unlock tiers derived from what the
 * user has really done; nothing is stored. A step is `completed` when its fact holds, `available` when every step
 * before it is completed, `locked` otherwise.
 */

export type StepKey =
  | "verify_email"
  | "create_resident"
  | "verify_identity"
  | "fund_wallet"
  | "activate_residency"
  | "register_company";

export interface OnboardingFacts {
  emailVerified: boolean;
  /** When each step's fact first held; null when it does not hold (verify_email has no recorded time). */
  doneAt: Partial<Record<StepKey, Date | null>>;
}

export const ONBOARDING_STEPS: readonly { key: StepKey; tier: number; title: string; unlocks: string[] }[] = [
  { key: "verify_email", tier: 1, title: "Verify your email address", unlocks: ["residency_application"] },
  { key: "create_resident", tier: 1, title: "Apply for digital residency", unlocks: ["identity_verification"] },
  { key: "verify_identity", tier: 2, title: "Verify your identity", unlocks: ["residency_activation"] },
  { key: "fund_wallet", tier: 2, title: "Add credits to your wallet", unlocks: ["paid_services"] },
  {
    key: "activate_residency",
    tier: 3,
    title: "Activate your residency",
    unlocks: ["keypair", "documents", "invoices"],
  },
  { key: "register_company", tier: 4, title: "Register a company", unlocks: ["companies", "treasury"] },
];

export interface StepState {
  key: StepKey;
  tier: number;
  title: string;
  status: "locked" | "available" | "completed";
  unlocks: string[];
  completed_at: string | null;
}

export function onboardingSteps(facts: OnboardingFacts): {
  steps: StepState[];
  current_tier: number;
  completed: boolean;
  next_step: StepKey | null;
} {
  const isDone = (key: StepKey) => (key === "verify_email" ? facts.emailVerified : Boolean(facts.doneAt[key]));
  let allBefore = true;
  const steps = ONBOARDING_STEPS.map((s): StepState => {
    const done = isDone(s.key);
    const status = done ? "completed" : allBefore ? "available" : "locked";
    allBefore = allBefore && done;
    const at = facts.doneAt[s.key];
    return { ...s, unlocks: [...s.unlocks], status, completed_at: done && at ? at.toISOString() : null };
  });
  let currentTier = 0;
  for (const tier of [...new Set(steps.map((s) => s.tier))]) {
    if (steps.every((s) => s.tier > tier || s.status === "completed")) currentTier = tier;
    else break;
  }
  return {
    steps,
    current_tier: currentTier,
    completed: steps.every((s) => s.status === "completed"),
    next_step: steps.find((s) => s.status === "available")?.key ?? null,
  };
}
