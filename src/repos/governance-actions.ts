import type { EntityManager } from "@mikro-orm/postgresql";
import { GovernanceActionEntity, type GovernanceActionRow } from "../../generated/entities.ts";
import { affected, sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/**
 * The append-only GovernanceAction table (member discipline steps). Rows are inserted once and never updated; each
 * parent has at most one next step (unique index on parent_action_sid), so of two racing steps on one parent one
 * is written and the other finds it taken.
 */

export type NewAction = Omit<GovernanceActionRow, "sid" | "created_at" | "updated_at">;

export function findAction(em: EntityManager, sid: string): Promise<GovernanceActionRow | null> {
  return em.findOne(GovernanceActionEntity, { sid }, { disableIdentityMap: true });
}

/** The step that answers `parentSid`, or null. */
export function findNextStep(em: EntityManager, parentSid: string): Promise<GovernanceActionRow | null> {
  return em.findOne(GovernanceActionEntity, { parent_action_sid: parentSid }, { disableIdentityMap: true });
}

/**
 * Appends a step unless its parent already has one (insert ... on conflict do nothing, so the transaction stays
 * usable): the row written, or null when another step answered the parent first.
 */
export async function appendAction(
  em: EntityManager,
  action: NewAction,
  now: Date,
): Promise<GovernanceActionRow | null> {
  const row: GovernanceActionRow = { sid: uuidv7(now), ...action, created_at: now, updated_at: now };
  const written = await affected(
    em,
    `insert into "governance_action" (sid, company_id, subject_resident_id, kind, parent_action_sid, content, due_by,
       decided_at, decided_by_role, decided_by_subject_id, outcome, created_by, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (parent_action_sid) do nothing`,
    [
      row.sid,
      row.company_id,
      row.subject_resident_id,
      row.kind,
      row.parent_action_sid,
      row.content,
      row.due_by,
      row.decided_at,
      row.decided_by_role,
      row.decided_by_subject_id,
      row.outcome,
      row.created_by,
      row.created_at,
      row.updated_at,
    ],
  );
  return written === 1 ? row : null;
}

/** Locks a row until the transaction ends (enforcement serialises on its decision; the row itself never changes). */
export async function lockAction(em: EntityManager, sid: string): Promise<boolean> {
  const rows = await sqlRows<{ sid: string }>(em, `select sid from "governance_action" where sid = ? for update`, [
    sid,
  ]);
  return rows.length === 1;
}

/** At most this many steps come back from one list (newest first). */
export const ACTION_LIST_BOUND = 500;

/**
 * A company's steps newest first, at most ACTION_LIST_BOUND: all of them, or those whose subject is one of
 * `subjects` (null = no subject restriction).
 */
export function listActions(
  em: EntityManager,
  companyId: string,
  subjects: readonly string[] | null,
): Promise<GovernanceActionRow[]> {
  return em.find(
    GovernanceActionEntity,
    { company_id: companyId, ...(subjects === null ? {} : { subject_resident_id: { $in: [...subjects] } }) },
    { orderBy: { sid: "desc" }, limit: ACTION_LIST_BOUND, disableIdentityMap: true },
  );
}

/**
 * When a decision was enforced: the time of its `enforce_decision` audit row written on success (the enforcement's
 * only record, since it changes no GovernanceAction row), or null.
 */
export async function enforcedAt(em: EntityManager, decisionSid: string): Promise<Date | null> {
  const rows = await sqlRows<{ created_at: Date | string }>(
    em,
    `select created_at from "user_audit_log"
     where action = 'enforce_decision' and target_type = 'governance_action' and target_ref = ? and allowed
     order by sid limit 1`,
    [decisionSid],
  );
  const at = rows[0]?.created_at;
  return at === undefined ? null : new Date(at);
}
