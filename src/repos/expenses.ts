import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { ZoneExpenseEntity, type ZoneExpenseRow } from "../../generated/entities.ts";
import type { ExpenseStatus } from "../../generated/types.ts";
import { affected } from "../db/sql.ts";

/** The ZoneExpense table: company expenses and their approval state. */

/** The most expenses one list answers (newest expense_date first). */
export const EXPENSE_LIST_LIMIT = 1000;

export function findExpense(em: EntityManager, expenseId: string): Promise<ZoneExpenseRow | null> {
  return em.findOne(ZoneExpenseEntity, { sid: expenseId });
}

/** Newest expense_date first, then newest sid; at most EXPENSE_LIST_LIMIT. */
export function listExpenses(em: EntityManager, fzcId: string): Promise<ZoneExpenseRow[]> {
  return em.find(
    ZoneExpenseEntity,
    { fzc_id: fzcId },
    { orderBy: { expense_date: "desc", sid: "desc" }, limit: EXPENSE_LIST_LIMIT },
  );
}

export function insertExpense(em: EntityManager, row: RequiredEntityData<ZoneExpenseRow>): ZoneExpenseRow {
  return em.create(ZoneExpenseEntity, row);
}

/** Changes a draft's fields only while it is still a draft; false when it no longer is (the race decides). */
export async function updateDraft(
  em: EntityManager,
  expenseId: string,
  changes: Partial<Omit<ZoneExpenseRow, "sid" | "status">>,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    ZoneExpenseEntity,
    { sid: expenseId, status: "draft" },
    { ...changes, updated_at: now },
  );
  return n === 1;
}

/** Deletes the expense only if it is still a draft. */
export async function deleteDraft(em: EntityManager, expenseId: string): Promise<boolean> {
  return (await affected(em, `delete from "zone_expense" where sid = ? and status = 'draft'`, [expenseId])) === 1;
}

export type ExpenseMoveFields = Partial<
  Pick<
    ZoneExpenseRow,
    "submitted_by" | "approved_by" | "rejected_by" | "rejection_reason" | "decided_at" | "self_decided"
  >
>;

/** The conditional move `from -> to`: true when this call made it, false when the expense was not in `from`. */
export async function moveExpense(
  em: EntityManager,
  expenseId: string,
  from: ExpenseStatus,
  to: ExpenseStatus,
  fields: ExpenseMoveFields,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    ZoneExpenseEntity,
    { sid: expenseId, status: from },
    { ...fields, status: to, updated_at: now },
  );
  return n === 1;
}
