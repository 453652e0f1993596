import type { EntityManager } from "@mikro-orm/postgresql";
import { affected } from "../db/sql.ts";
import { ensureWallet } from "./credit-balances.ts";

/** The automatic top-up settings and saved card on CreditBalance (issue 15); balances move in credit-balances.ts. */

/** Saves the card a confirmed card payment used, for later automatic top-ups. */
export async function saveCard(
  em: EntityManager,
  userId: string,
  customerId: string | null,
  paymentMethodId: string,
  now: Date,
): Promise<void> {
  await ensureWallet(em, userId, now);
  await affected(
    em,
    `update "credit_balance" set cardpsp_payment_method_id = ?, cardpsp_customer_id = coalesce(?, cardpsp_customer_id),
       updated_at = ? where user_id = ?`,
    [paymentMethodId, customerId, now, userId],
  );
}

/** Turns automatic top-up on with these figures (USD, two decimals). */
export async function enableAutoTopUp(
  em: EntityManager,
  userId: string,
  amount: number,
  threshold: number,
  now: Date,
): Promise<void> {
  await affected(
    em,
    `update "credit_balance" set auto_topup_enabled = true, auto_topup_amount = ?, auto_topup_threshold = ?,
       updated_at = ? where user_id = ?`,
    [amount.toFixed(2), threshold.toFixed(2), now, userId],
  );
}

/** Turns automatic top-up off, keeping the figures. */
export async function disableAutoTopUp(em: EntityManager, userId: string, now: Date): Promise<void> {
  await affected(
    em,
    `update "credit_balance" set auto_topup_enabled = false, updated_at = ? where user_id = ? and auto_topup_enabled`,
    [now, userId],
  );
}
