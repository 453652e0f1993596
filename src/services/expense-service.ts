import type { ZoneExpenseRow } from "../../generated/entities.ts";
import type { ExpenseServiceHandlers } from "../../generated/handlers/index.ts";
import type { ExpenseResult } from "../../generated/types.ts";
import { boardMembers } from "../domain/directors.ts";
import {
  draftOnlyRefusal,
  EXPENSE_AUDIENCE_RULE,
  EXPENSE_CLASSIFICATION,
  EXPENSE_MOVES,
  type ExpenseFields,
  type ExpenseMove,
  expenseChanges,
  fourEyes,
  moveRefusal,
  rejectionReason,
} from "../domain/expenses.ts";
import { uuidv7 } from "../domain/ids.ts";
import { isRefusal, type Refusal } from "../domain/refusal.ts";
import { rolesOfCompanyAt } from "../repos/company-roles.ts";
import { findResident, residentStandings } from "../repos/digital-residents.ts";
import { closeAudience, writeAudience } from "../repos/document-audiences.ts";
import * as expenses from "../repos/expenses.ts";
import { recordAdminAction } from "../rpc/admin-actions.ts";
import { requireCaller } from "../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

/*
 * ExpenseService (issue 15): company expenses, `draft -> submitted -> approved | rejected`. Handlers follow
 * docs/handler-pattern.md: load (src/repos/expenses.ts), decide (src/domain/expenses.ts), apply (conditional
 * updates whose affected count decides a race), map (ExpenseResult, InvoiceError as the seed says).
 * The dispatcher loads and authorizes the target (`x-target`): the company by fzc_id for list/create/delete, the
 * expense for get/update/submit/approve/reject (its company through ZoneExpense's x-company), with the company role
 * and, on writes, the company's status; handlers read the expense as `ctx.target.row`. approve/reject name no role
 * for the caller (a proxy holder decides for a director): the deciding resident's role is `x-acts-as`'s.
 * Administrators in a session pass the role checks as the dispatcher lets them; their writes record an AdminAction.
 */

const invoiceError = errorsFor("ExpenseService", "InvoiceError");

function refused(r: Refusal<"InvalidInput" | "InvalidState" | "InvalidAmount" | "SelfApproval">): Error {
  return invoiceError(r.refusal, r.message, r.details);
}

function toExpenseResult(row: ZoneExpenseRow): ExpenseResult {
  return {
    sid: row.sid,
    fzc_id: row.fzc_id,
    receipt_number: row.receipt_number,
    vendor_name: row.vendor_name,
    description: row.description,
    amount: row.amount,
    currency: row.currency,
    category: row.category,
    receipt_url: row.receipt_url,
    expense_date: row.expense_date.toISOString(),
    status: row.status,
    approved_by: row.approved_by,
    rejected_by: row.rejected_by,
    rejection_reason: row.rejection_reason,
    decided_at: row.decided_at?.toISOString() ?? null,
    self_decided: row.self_decided,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** delete's expense, which must belong to the company fzc_id names (the dispatcher authorized that company). */
async function loadCompanyExpense(ctx: RpcContext, expenseId: string, fzcId: string): Promise<ZoneExpenseRow> {
  const row = await expenses.findExpense(ctx.em, expenseId);
  if (!row || row.fzc_id !== fzcId) throw invoiceError.notFound("expense");
  return row;
}

/** An administrator's write on a company's expense, recorded (the dispatcher let the session through). */
function recordIfAdmin(ctx: RpcContext, action: string, row: ZoneExpenseRow, details: Record<string, unknown>) {
  if (!isAdminSession(requireCaller(ctx))) return;
  recordAdminAction(ctx, {
    action,
    targetType: "expense",
    targetId: row.sid,
    details: { fzc_id: row.fzc_id, ...details },
  });
}

/**
 * approve / reject: the dispatcher checked the deciding resident (the caller owns it or holds its proxy; its status;
 * `x-acts-as` role: a current director or founder of the expense's company). Four eyes stay here, a rule on the
 * record: the submitter decides nothing of its own submission, unless it is the company's whole board (the owners
 * of the current director and founder residents); answers whether the decision is the submitter's own.
 */
async function fourEyesCheck(ctx: RpcContext, row: ZoneExpenseRow, residentId: string): Promise<boolean> {
  const resident = await findResident(ctx.em, residentId);
  const board = boardMembers(await rolesOfCompanyAt(ctx.em, row.fzc_id, ctx.now()));
  const owners = new Map((await residentStandings(ctx.em, board)).map((r) => [r.resident_id, r.user_id]));
  const verdict = fourEyes(
    row.submitted_by,
    requireCaller(ctx).userId,
    resident?.user_id ?? null,
    board.map((subject) => owners.get(subject) ?? null),
  );
  if (isRefusal(verdict)) throw refused(verdict);
  return verdict.selfDecided;
}

/** The conditional move; a lost race (the expense left `from` meanwhile) is InvalidState, nothing written. */
async function move(
  ctx: RpcContext,
  row: ZoneExpenseRow,
  name: ExpenseMove,
  fields: expenses.ExpenseMoveFields,
): Promise<ExpenseResult> {
  const bad = moveRefusal(row.status, name);
  if (bad) throw refused(bad);
  const { from, to } = EXPENSE_MOVES[name];
  const now = ctx.now();
  if (!(await expenses.moveExpense(ctx.em, row.sid, from, to, fields, now))) {
    throw invoiceError("InvalidState", `the expense is no longer ${from}`);
  }
  return toExpenseResult({ ...row, ...fields, status: to, updated_at: now });
}

export const expenseService: ExpenseServiceHandlers<RpcContext> = {
  async list(ctx, { fzc_id }) {
    const rows = await expenses.listExpenses(ctx.em, fzc_id);
    return { items: rows.map(toExpenseResult) };
  },

  async create(ctx, { fzc_id, data }) {
    const fields = expenseChanges(data);
    if (isRefusal(fields)) throw refused(fields);
    const now = ctx.now();
    const complete = { receipt_url: null, ...fields } as ExpenseFields;
    const row = expenses.insertExpense(ctx.em, {
      sid: uuidv7(now),
      fzc_id,
      ...complete,
      status: "draft",
      submitted_by: null,
      approved_by: null,
      rejected_by: null,
      rejection_reason: null,
      decided_at: null,
      self_decided: false,
      created_at: now,
      updated_at: now,
    });
    writeAudience(
      ctx.em,
      {
        documentRef: row.sid,
        documentType: "expense",
        companyId: fzc_id,
        classification: EXPENSE_CLASSIFICATION,
        rule: EXPENSE_AUDIENCE_RULE,
        relevantFrom: now,
        createdBy: requireCaller(ctx).userId,
      },
      now,
    );
    recordIfAdmin(ctx, "create_expense", row, { amount: row.amount, currency: row.currency });
    return toExpenseResult(row);
  },

  async get(ctx) {
    return toExpenseResult(ctx.target.row);
  },

  async update(ctx, { data }) {
    const row = ctx.target.row;
    const notDraft = draftOnlyRefusal(row.status, "updated");
    if (notDraft) throw refused(notDraft);
    const changes = expenseChanges(data);
    if (isRefusal(changes)) throw refused(changes);
    const now = ctx.now();
    if (!(await expenses.updateDraft(ctx.em, row.sid, changes, now))) {
      throw invoiceError("InvalidState", "the expense is no longer a draft");
    }
    recordIfAdmin(ctx, "update_expense", row, { fields: Object.keys(changes) });
    return toExpenseResult({ ...row, ...changes, updated_at: now });
  },

  async delete(ctx, { fzc_id, expense_id }) {
    const row = await loadCompanyExpense(ctx, expense_id, fzc_id);
    const notDraft = draftOnlyRefusal(row.status, "deleted");
    if (notDraft) throw refused(notDraft);
    if (!(await expenses.deleteDraft(ctx.em, row.sid))) {
      throw invoiceError("InvalidState", "the expense is no longer a draft");
    }
    const now = ctx.now();
    await closeAudience(ctx.em, "expense", row.sid, now, EXPENSE_AUDIENCE_RULE, requireCaller(ctx).userId);
    recordIfAdmin(ctx, "delete_expense", row, {});
    return { sid: row.sid, deleted: true };
  },

  async submit(ctx) {
    const row = ctx.target.row;
    const result = await move(ctx, row, "submit", { submitted_by: requireCaller(ctx).userId });
    recordIfAdmin(ctx, "submit_expense", row, {});
    return result;
  },

  async approve(ctx, { approved_by }) {
    const row = ctx.target.row;
    const self_decided = await fourEyesCheck(ctx, row, approved_by);
    return move(ctx, row, "approve", { approved_by, decided_at: ctx.now(), self_decided });
  },

  async reject(ctx, { rejected_by, reason }) {
    const row = ctx.target.row;
    const self_decided = await fourEyesCheck(ctx, row, rejected_by);
    const clean = rejectionReason(reason);
    if (isRefusal(clean)) throw refused(clean);
    return move(ctx, row, "reject", { rejected_by, rejection_reason: clean, decided_at: ctx.now(), self_decided });
  },
};
