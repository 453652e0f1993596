import type { MethodMap } from "../../generated/methods.ts";
import type { Client, RpcErrorBody, TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

/** Wallet figures as numbers, straight from the database. */
export async function walletOf(t: TestApp, userId: string) {
  const rows = await sql<{ balance: string; lifetime_earned: string; lifetime_spent: string }>(
    t,
    `select balance::text, lifetime_earned::text, lifetime_spent::text from credit_balance where user_id = ?`,
    [userId],
  );
  const r = rows[0];
  return r ? { balance: Number(r.balance), earned: Number(r.lifetime_earned), spent: Number(r.lifetime_spent) } : null;
}

/** A Payment row as the payment issue will confirm it (inserted directly until that lands). */
export async function insertPayment(t: TestApp, userId: string, values: Record<string, unknown> = {}): Promise<string> {
  const row = await insertRow(t.app.runtime.orm, "Payment", {
    user_id: userId,
    entity_id: userId,
    entity_type: "resident",
    payment_type: "cardpsp",
    amount: 25,
    currency: "USD",
    payment_purpose: "credit_topup",
    status: "confirmed",
    expires_at: new Date("2026-12-01T00:00:00.000Z"),
    confirmed_at: new Date("2026-11-23T09:00:00.000Z"),
    ...values,
  });
  return String(row["sid"]);
}

/** Grants a bonus as an administrator (the way tests fund wallets). */
export async function fund(admin: Client, userId: string, amount: number) {
  return admin.callOk("creditservice.add_bonus", { user_id: userId, amount, description: "test funds" });
}

type AiParams = MethodMap["creditservice.debit_ai_query"]["params"];
type AiResult = MethodMap["creditservice.debit_ai_query"]["result"];

/** debit_ai_query as the first-party assistant posts it: in the billed user's own session. */
export async function aiDebit(
  client: Client,
  params: AiParams,
): Promise<{ result: AiResult } | { error: RpcErrorBody }> {
  const r = await client.rpc("creditservice.debit_ai_query", params);
  return r.error ? { error: r.error } : { result: r.result as AiResult };
}
