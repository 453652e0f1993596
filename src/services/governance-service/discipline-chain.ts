import type { GovernanceActionRow } from "../../../generated/entities.ts";
import type { GovernanceActionResult } from "../../../generated/types.ts";
import { isJsonObjectText, type ParentStep } from "../../domain/discipline.ts";
import { findAction, findNextStep } from "../../repos/governance-actions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/**
 * Shared pieces of the discipline chain handlers (docs/decisions.md "Member discipline chain (issue 17)"). The row a
 * step answers (`x-target` GovernanceAction), the caller's role in its company and the company's status are the
 * dispatcher's: a handler starts from `ctx.target.row`.
 */

export const governanceError = errorsFor("GovernanceService", "GovernanceError");

export function toActionResult(row: GovernanceActionRow): GovernanceActionResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    subject_resident_id: row.subject_resident_id,
    kind: row.kind,
    parent_action_sid: row.parent_action_sid,
    content: row.content,
    due_by: row.due_by.toISOString(),
    decided_at: row.decided_at?.toISOString() ?? null,
    decided_by_role: row.decided_by_role,
    decided_by_subject_id: row.decided_by_subject_id,
    outcome: row.outcome,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}

export function requireJsonObject(content: string): void {
  if (!isJsonObjectText(content)) {
    throw governanceError("InvalidInput", "content must be a JSON object", { field: "content" });
  }
}

/** What the chain rules need about a parent: its own parent's kind and whether a step answers it already. */
export async function parentFacts(ctx: RpcContext, parent: GovernanceActionRow): Promise<ParentStep> {
  const grand = parent.parent_action_sid === null ? null : await findAction(ctx.em, parent.parent_action_sid);
  return {
    kind: parent.kind,
    parentKind: grand?.kind ?? null,
    due_by: parent.due_by,
    outcome: parent.outcome,
    answered: (await findNextStep(ctx.em, parent.sid)) !== null,
  };
}
