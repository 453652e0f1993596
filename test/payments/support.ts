import { randomBytes } from "node:crypto";
import type { MobilePayWebhookData, ReceivingWebhookData } from "../../generated/types.ts";
import { sandboxPaymentCallback, sandboxReceivingCallback } from "../../src/integrations/payments/sandbox-callbacks.ts";
import { sweepPayments } from "../../src/services/payment-service/sweep.ts";
import type { TestApp } from "../support/app.ts";
import { insertRole } from "../support/entities.ts";
import { sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";

let events = 0;

/** A resident row of the user (pending unless told), with its formatted id. */
export async function insertResident(t: TestApp, userId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const row = await insertRow(t.app.runtime.orm, "DigitalResident", residentValues(userId, extra));
  return String(row["resident_id"]);
}

/** Companies and their directors come from the shared fixtures. */
export { insertCompany } from "../support/entities.ts";

/** A current director role of `residentId` in `companyId`. */
export function insertDirector(t: TestApp, companyId: string, residentId: string): Promise<void> {
  return insertRole(t, companyId, residentId, "director");
}

export async function insertInvoice(t: TestApp, values: Record<string, unknown>): Promise<string> {
  const row = await insertRow(t.app.runtime.orm, "ZoneInvoice", {
    invoice_number: `INV-${randomBytes(4).toString("hex")}`,
    amount: 100,
    tax_amount: 18,
    currency: "USD",
    description: "Consulting",
    issue_date: new Date("2026-11-20T00:00:00.000Z"),
    due_date: new Date("2026-12-20T00:00:00.000Z"),
    status: "sent",
    ...values,
  });
  return String(row["sid"]);
}

/** A provider verdict for an order, signed with the app's webhook secret (the sandbox provider's part). */
export function verdict(
  orderId: string,
  status: MobilePayWebhookData["status"],
  amount: number,
  extra: Partial<MobilePayWebhookData> = {},
): MobilePayWebhookData {
  events += 1;
  return {
    event_id: `evt-${events}-${randomBytes(4).toString("hex")}`,
    event_type: "payment.updated",
    order_id: orderId,
    status,
    amount,
    currency: "USD",
    occurred_at: "2026-11-23T10:00:00.000Z",
    ...extra,
  };
}

export function postVerdict(
  t: TestApp,
  data: MobilePayWebhookData,
  secret = t.config.webhookSecret,
  at = t.clock.now(),
) {
  const { body, headers } = sandboxPaymentCallback(secret, data, at);
  return t.post("/rpc", body, headers);
}

export function postReceiving(t: TestApp, data: Omit<ReceivingWebhookData, "event_id" | "occurred_at">) {
  events += 1;
  const full = { event_id: `rcv-${events}`, occurred_at: "2026-11-23T10:00:00.000Z", ...data };
  const { body, headers } = sandboxReceivingCallback(t.config.webhookSecret, full, t.clock.now());
  return t.post("/rpc", body, headers);
}

export function sweep(t: TestApp) {
  return sweepPayments(t.app.runtime, t.clock.now());
}

export async function paymentRow(t: TestApp, sid: string) {
  const rows = await sql<{
    status: string;
    amount: string;
    external_id: string;
    confirmation_count: number | null;
    auto_topup: boolean;
    payment_purpose: string;
    transaction_hash: string | null;
  }>(
    t,
    `select status, amount::text, external_id, confirmation_count::int as confirmation_count, auto_topup, payment_purpose, transaction_hash from payment where sid = ?`,
    [sid],
  );
  const row = rows[0];
  if (!row) throw new Error(`payment ${sid} not found`);
  return row;
}

export async function balanceOf(t: TestApp, userId: string): Promise<number> {
  const rows = await sql<{ balance: string }>(t, `select balance::text from credit_balance where user_id = ?`, [
    userId,
  ]);
  return Number(rows[0]?.balance ?? 0);
}
