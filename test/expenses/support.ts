import type { ExpenseResult } from "../../generated/types.ts";
import type { Client, TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";

/** Set-up for the expense tests: people and companies come from test/support/entities.ts, as in the other areas. */
export {
  insertCompany,
  insertProxy,
  insertResident,
  insertRole,
  person,
  startFinanceApp as startExpenseApp,
} from "../support/entities.ts";

export const DATA = {
  receipt_number: "R-001",
  vendor_name: "Acme Supplies",
  description: "printer paper",
  amount: 12.5,
  currency: "USD",
  category: "office",
  receipt_url: "https://receipts.example/1.pdf",
  expense_date: "2026-11-01T00:00:00.000Z",
};

export async function draft(client: Client, fzc_id: string, data: Partial<typeof DATA> = {}): Promise<ExpenseResult> {
  return client.callOk("expenseservice.create", { fzc_id, data: { ...DATA, ...data } });
}

/** Everything an expense call may write: compared before and after a refusal. */
export async function writes(t: TestApp) {
  return {
    expenses: await sql(t, `select * from "zone_expense" order by sid`),
    audiences: await count(t, "document_audience"),
    adminActions: await count(t, "admin_action"),
  };
}
