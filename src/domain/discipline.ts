import type {
  CoopDueProcessExecutors,
  DecisionOutcome,
  ExecutorRole,
  GovernanceActionKind,
} from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * The steps of a discipline chain, in order; `appeal_decision` is the ruling on an appeal (a decision row whose parent
 * is the appeal). The keys match CoopDueProcessExecutors.
 */
export const DISCIPLINE_STEPS = ["notice", "response", "review", "decision", "appeal", "appeal_decision"] as const;
export type DisciplineStep = (typeof DISCIPLINE_STEPS)[number];

/** Every ExecutorRole of the spec (test/domain/discipline.pure.test.ts checks it against the enumeration). */
export const EXECUTOR_ROLES = [
  "ethics_committee",
  "governance_board",
  "review_panel",
  "rotating_impartial_committee",
  "external_mediator",
  "random_member_jury",
  "general_assembly",
  "internal_appeals_committee",
  "arbitration",
] as const satisfies readonly ExecutorRole[];

/** The deployment's discipline settings (parsed from the environment by src/config.ts). */
export interface DisciplineConfig {
  /**
   * The SLA of each step in whole days: a step's row gets due_by = the prior step's due_by (now for a notice) plus
   * its step's SLA, the deadline of the step that follows it. DISCIPLINE_SLA_<STEP>_DAYS: NOTICE (the response
   * window, default 14), RESPONSE (until the review, 14), REVIEW (until the decision, 14), DECISION (the appeal
   * window, 14), APPEAL (until the appeal ruling, 30), APPEAL_DECISION (nothing follows a ruling, default 0).
   */
  slaDays: Record<DisciplineStep, number>;
  /**
   * Deployment default executor sets for decisions, used when the company's due_process_executors names none for
   * the step: DISCIPLINE_DECISION_EXECUTORS (step 4, on a review; default governance_board,ethics_committee) and
   * DISCIPLINE_APPEAL_EXECUTORS (step 5, the ruling on an appeal; default internal_appeals_committee,arbitration).
   * Comma-separated ExecutorRole values, at least one.
   */
  executors: { decision: readonly ExecutorRole[]; appeal_decision: readonly ExecutorRole[] };
}

/**
 * The member discipline chain (seed 000 "Member discipline chain", rules 1-4): rows chain by parent_action_sid as
 * notice -> response -> review -> decision -> appeal -> decision (the appeal ruling); a review may also follow a
 * notice whose response window passed unanswered. Every parent has at most one next step (the database's unique
 * index on parent_action_sid settles races). Pure rules: values in, values or a Refusal out.
 */

const DAY_MS = 24 * 3600 * 1000;

/** What a next step needs to know about the row it answers. */
export interface ParentStep {
  kind: GovernanceActionKind;
  /** Kind of the parent's own parent (null for a notice): tells a review-parented decision from an appeal ruling. */
  parentKind: GovernanceActionKind | null;
  due_by: Date;
  outcome: DecisionOutcome | null;
  /** Whether a next step already answers it. */
  answered: boolean;
}

/** The step a new row of `kind` on `parent` is: a decision on an appeal is the appeal ruling. */
export function stepOf(kind: GovernanceActionKind, parent: Pick<ParentStep, "kind"> | null): DisciplineStep {
  return kind === "decision" && parent?.kind === "appeal" ? "appeal_decision" : kind;
}

export type StepRefusal = Refusal<"InvalidState" | "Expired">;

const outOfOrder = (kind: GovernanceActionKind, parent: ParentStep): StepRefusal =>
  refuse("InvalidState", `a ${kind} cannot follow a ${parent.kind}`, { kind, parent_kind: parent.kind });

/**
 * Whether a `kind` row may be appended to `parent` at `now` (never a notice: it opens a chain). The member's own
 * steps (response, appeal) must come before the parent's due_by (Expired after); a review on a notice only once
 * the response window passed; an appeal only against a review-parented decision other than `dismiss`.
 */
export function nextStepRefusal(
  kind: Exclude<GovernanceActionKind, "notice">,
  parent: ParentStep,
  now: Date,
): StepRefusal | null {
  const expired = now.getTime() >= parent.due_by.getTime();
  const allowed: Record<typeof kind, boolean> = {
    response: parent.kind === "notice",
    review: parent.kind === "response" || parent.kind === "notice",
    decision: parent.kind === "review" || parent.kind === "appeal",
    appeal: parent.kind === "decision" && parent.parentKind === "review" && parent.outcome !== "dismiss",
  };
  if (!allowed[kind]) return outOfOrder(kind, parent);
  if (parent.answered) {
    return refuse("InvalidState", `the ${parent.kind} already has its next step`, { parent_kind: parent.kind });
  }
  if ((kind === "response" || kind === "appeal") && expired) {
    return refuse("Expired", `the ${kind} window closed at ${parent.due_by.toISOString()}`, {
      due_by: parent.due_by.toISOString(),
    });
  }
  if (kind === "review" && parent.kind === "notice" && !expired) {
    return refuse("InvalidState", "the notice is still awaiting its response", {
      due_by: parent.due_by.toISOString(),
    });
  }
  return null;
}

/** due_by of a new step: the prior step's due_by (now for a notice) plus the step's SLA in days. */
export function dueByOf(step: DisciplineStep, priorDueBy: Date, slaDays: DisciplineConfig["slaDays"]): Date {
  return new Date(priorDueBy.getTime() + slaDays[step] * DAY_MS);
}

/**
 * The executors allowed to take a decision, chosen by the parent's kind: on a review the step-4 body (the company's
 * `decision` executor), on an appeal the step-5 body (its `appeal_decision` executor, else its `appeal` executor);
 * a step the company leaves null (or a company without due_process_executors) takes the deployment default set.
 */
export function executorSet(
  step: "decision" | "appeal_decision",
  company: CoopDueProcessExecutors | null,
  defaults: DisciplineConfig["executors"],
): readonly ExecutorRole[] {
  const chosen = step === "decision" ? company?.decision : (company?.appeal_decision ?? company?.appeal);
  return chosen ? [chosen] : defaults[step];
}

export function executorRefusal(
  role: ExecutorRole,
  allowed: readonly ExecutorRole[],
): Refusal<"ExecutorNotAllowed"> | null {
  if (allowed.includes(role)) return null;
  return refuse("ExecutorNotAllowed", `${role} does not take this decision (allowed: ${allowed.join(", ")})`, {
    decided_by_role: role,
    allowed: [...allowed],
  });
}

/** A decision and what followed it, as enforcement sees it. */
export interface DecisionFacts {
  parentKind: GovernanceActionKind;
  outcome: DecisionOutcome;
  due_by: Date;
  /** Whether the member appealed it. */
  appealed: boolean;
  /** The appeal ruling's outcome; null while the appeal is pending (or when there is none). */
  ruling: DecisionOutcome | null;
}

/**
 * Whether a decision may be enforced now (rules 3-4): only a review-parented `remove`; while the appeal window is
 * open or an appeal waits for its ruling it is InvalidState; an appeal ruling other than `dismiss` sets it aside for
 * good (NotEnforceable), as does any outcome other than `remove`.
 */
export function enforcementRefusal(d: DecisionFacts, now: Date): Refusal<"InvalidState" | "NotEnforceable"> | null {
  if (d.parentKind !== "review") {
    return refuse("InvalidState", "only the decision on a review is enforced, not an appeal ruling");
  }
  if (d.outcome !== "remove") {
    return refuse("NotEnforceable", `a ${d.outcome} decision removes nobody`, { outcome: d.outcome });
  }
  if (d.appealed) {
    if (d.ruling === null) return refuse("InvalidState", "the appeal against the decision awaits its ruling");
    if (d.ruling !== "dismiss") {
      return refuse("NotEnforceable", "the appeal ruling set the decision aside", { ruling: d.ruling });
    }
    return null;
  }
  if (now.getTime() < d.due_by.getTime()) {
    return refuse("InvalidState", `the appeal window is open until ${d.due_by.toISOString()}`, {
      due_by: d.due_by.toISOString(),
    });
  }
  return null;
}

/** Content is JSON object text. */
export function isJsonObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
