import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import { companyRoles, ownedResidentIds, satisfiesCompanyRole } from "../../auth/access.ts";
import { enforcementRefusal } from "../../domain/discipline.ts";
import { closeRole, rolesOfCompanyAt } from "../../repos/company-roles.ts";
import {
  enforcedAt,
  findAction,
  findNextStep,
  listActions as listRows,
  lockAction,
} from "../../repos/governance-actions.ts";
import { unaudited } from "../../rpc/audit-marks.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { governanceError, toActionResult } from "./discipline-chain.ts";

type Handlers = GovernanceServiceHandlers<RpcContext>;

/**
 * enforce_decision (seed 000 rule 3): the dispatcher loaded the decision (`ctx.target.row`) and checked the caller's
 * director role in its company, the company's status and enforced_by's. Closes the member's roles in force in the company at now (closeRole) and the
 * dispatcher writes the one enforce_decision audit row, which is also the enforcement's record: no GovernanceAction
 * row is changed or written. The decision row is locked for the call, so of concurrent enforcements one closes
 * the roles and the others see its audit row; a repeat answers already_enforced and writes no audit row.
 */
export const enforceDecision: Handlers["enforceDecision"] = async (ctx) => {
  const decision = ctx.target.row;
  if (decision.kind !== "decision" || decision.outcome === null || decision.parent_action_sid === null) {
    throw governanceError("InvalidState", `a ${decision.kind} is not a decision`);
  }
  await lockAction(ctx.em, decision.sid);
  const base = {
    decision_id: decision.sid,
    company_id: decision.company_id,
    subject_resident_id: decision.subject_resident_id,
  };
  const earlier = await enforcedAt(ctx.em, decision.sid);
  if (earlier) {
    return unaudited({ ...base, closed_role_ids: [], already_enforced: true, enforced_at: earlier.toISOString() });
  }
  const parent = await findAction(ctx.em, decision.parent_action_sid);
  const appeal = await findNextStep(ctx.em, decision.sid);
  const ruling = appeal ? await findNextStep(ctx.em, appeal.sid) : null;
  const now = ctx.now();
  const refusal = enforcementRefusal(
    {
      parentKind: parent?.kind ?? "notice",
      outcome: decision.outcome,
      due_by: decision.due_by,
      appealed: appeal !== null,
      ruling: ruling?.outcome ?? null,
    },
    now,
  );
  if (refusal) throw governanceError(refusal.refusal, refusal.message, refusal.details);
  const held = (await rolesOfCompanyAt(ctx.em, decision.company_id, now)).filter(
    (r) => r.subject_id === decision.subject_resident_id,
  );
  const closed: string[] = [];
  for (const role of held) {
    const row = await closeRole(ctx.em, role.sid, now);
    if (row?.valid_to?.getTime() === now.getTime()) closed.push(role.sid);
  }
  return { ...base, closed_role_ids: closed, already_enforced: false, enforced_at: now.toISOString() };
};

/**
 * list_actions: the dispatcher checked the company and the caller's membership (`x-target` member). What the list
 * shows is the handler's: directors (and founders, the owner, an administrator's session) see every chain, other
 * members only the chains whose subject is a resident they own. That lookup of the caller's roles decides the
 * visibility of chains among members, not who may call (x-target states one role, not a filter by role).
 */
export const listActions: Handlers["listActions"] = async (ctx, p) => {
  const caller = requireCaller(ctx);
  const now = ctx.now();
  const everyone =
    isAdminSession(caller) ||
    satisfiesCompanyRole((await companyRoles(ctx.em, caller, p.company_id, now)) ?? [], "director");
  let subjects: string[] | null = everyone ? null : await ownedResidentIds(ctx.em, caller);
  if (p.subject_resident_id !== undefined) {
    subjects = subjects === null || subjects.includes(p.subject_resident_id) ? [p.subject_resident_id] : [];
  }
  return { items: (await listRows(ctx.em, p.company_id, subjects)).map(toActionResult) };
};
