import type { GovernanceActionRow } from "../../../generated/entities.ts";
import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import type { DecisionOutcome, ExecutorRole } from "../../../generated/types.ts";
import { isCoopType } from "../../domain/company-registration.ts";
import { dueByOf, executorRefusal, executorSet, nextStepRefusal, stepOf } from "../../domain/discipline.ts";
import { findCompany } from "../../repos/companies.ts";
import { currentCompanyRoles } from "../../repos/company-access.ts";
import { ownedResidentIds } from "../../repos/digital-residents.ts";
import { appendAction } from "../../repos/governance-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { governanceError, parentFacts, requireJsonObject, toActionResult } from "./discipline-chain.ts";

export { enforceDecision, listActions } from "./discipline-enforce.ts";

type Handlers = GovernanceServiceHandlers<RpcContext>;

/**
 * The five discipline steps (seed 000 "Member discipline chain"): each appends one GovernanceAction row chained to
 * its parent; rows are never changed. The dispatcher loads the parent (`x-target` GovernanceAction, `ctx.target.row`),
 * checks the caller's role in its company (member for the subject's steps, director for the board's), the company's
 * status and the acting resident's (created_by), and writes the governance_step audit row of each step (and of each
 * refusal of a known caller). Who among the company's residents takes a step (the subject, not the subject) is the
 * chain's rule, here.
 */

interface Decision {
  outcome: DecisionOutcome;
  role: ExecutorRole;
}

/**
 * Appends a `kind` step to `parent`: content, chain order (domain), due_by = the parent's due_by plus
 * the step's SLA, then the insert, which loses to a step that answered the parent meanwhile (InvalidState).
 */
async function appendStep(
  ctx: RpcContext,
  kind: "response" | "review" | "decision" | "appeal",
  parent: GovernanceActionRow,
  p: { content: string; created_by: string },
  decision?: Decision,
) {
  requireJsonObject(p.content);
  const now = ctx.now();
  const order = nextStepRefusal(kind, await parentFacts(ctx, parent), now);
  if (order) throw governanceError(order.refusal, order.message, order.details);
  const step = stepOf(kind, parent);
  if (decision) {
    const company = await findCompany(ctx.em, parent.company_id);
    const allowed = executorSet(
      step === "decision" ? "decision" : "appeal_decision",
      company?.due_process_executors ?? null,
      ctx.config.discipline.executors,
    );
    const wrong = executorRefusal(decision.role, allowed);
    if (wrong) throw governanceError(wrong.refusal, wrong.message, wrong.details);
  }
  const row = await appendAction(
    ctx.em,
    {
      company_id: parent.company_id,
      subject_resident_id: parent.subject_resident_id,
      kind,
      parent_action_sid: parent.sid,
      content: p.content,
      due_by: dueByOf(step, parent.due_by, ctx.config.discipline.slaDays),
      decided_at: decision ? now : null,
      decided_by_role: decision?.role ?? null,
      decided_by_subject_id: decision ? p.created_by : null,
      outcome: decision?.outcome ?? null,
      created_by: p.created_by,
    },
    now,
  );
  if (!row) throw governanceError("InvalidState", `the ${parent.kind} already has its next step`);
  return toActionResult(row);
}

/**
 * The member concerned takes no executor step of its own chain (review, decision, appeal decision): neither as the
 * step's author nor through another resident of the user who owns the subject (issue 29 item 12).
 */
async function refuseSubject(ctx: RpcContext, parent: GovernanceActionRow, createdBy: string): Promise<void> {
  const subject = parent.subject_resident_id;
  const caller = requireCaller(ctx);
  const own =
    createdBy === subject || (await ownedResidentIds(ctx.em, caller.userId, caller.partnerId)).includes(subject);
  if (own) throw governanceError("Forbidden", "the member concerned takes no executor step in their own case");
}

function requireSubject(parent: GovernanceActionRow, createdBy: string): void {
  if (createdBy !== parent.subject_resident_id) {
    throw governanceError("Forbidden", "only the member concerned takes this step");
  }
}

/**
 * issue_notice: the dispatcher checked the caller's director role in the company (`ctx.target.row`) and its status,
 * and that the notice's issuer, created_by, holds the director (or founder) role itself (x-acts-as role); the
 * subject must hold a role.
 */
export const issueNotice: Handlers["issueNotice"] = async (ctx, p) => {
  const now = ctx.now();
  const company = ctx.target.row;
  if (!isCoopType(company.company_type)) {
    throw governanceError("InvalidState", "member discipline is for cooperatives only", {
      company_type: company.company_type,
    });
  }
  requireJsonObject(p.content);
  if ((await currentCompanyRoles(ctx.em, p.company_id, [p.subject_resident_id], now)).length === 0) {
    throw governanceError.notFound("member");
  }
  const row = await appendAction(
    ctx.em,
    {
      company_id: p.company_id,
      subject_resident_id: p.subject_resident_id,
      kind: "notice",
      parent_action_sid: null,
      content: p.content,
      due_by: dueByOf("notice", now, ctx.config.discipline.slaDays),
      decided_at: null,
      decided_by_role: null,
      decided_by_subject_id: null,
      outcome: null,
      created_by: p.created_by,
    },
    now,
  );
  if (!row) throw new Error("a notice has no parent and cannot conflict");
  return toActionResult(row);
};

export const submitResponse: Handlers["submitResponse"] = async (ctx, p) => {
  const parent = ctx.target.row;
  requireSubject(parent, p.created_by);
  return appendStep(ctx, "response", parent, p);
};

export const conductReview: Handlers["conductReview"] = async (ctx, p) => {
  const parent = ctx.target.row;
  await refuseSubject(ctx, parent, p.created_by);
  return appendStep(ctx, "review", parent, p);
};

export const issueDecision: Handlers["issueDecision"] = async (ctx, p) => {
  const parent = ctx.target.row;
  await refuseSubject(ctx, parent, p.created_by);
  return appendStep(ctx, "decision", parent, p, { outcome: p.outcome, role: p.decided_by_role });
};

export const fileAppeal: Handlers["fileAppeal"] = async (ctx, p) => {
  const parent = ctx.target.row;
  requireSubject(parent, p.created_by);
  return appendStep(ctx, "appeal", parent, p);
};
