import type { CreditBalanceRow } from "../../../generated/entities.ts";
import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import type { AutoTopupResult } from "../../../generated/types.ts";
import { isValidAmount } from "../../domain/money.ts";
import { CREDIT_PRICING } from "../../domain/pricing.ts";
import { disableAutoTopUp, enableAutoTopUp } from "../../repos/credit-auto-topup.ts";
import { ensureWallet, findWallet } from "../../repos/credit-balances.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { creditError } from "./common.ts";

type Handlers = CreditServiceHandlers<RpcContext>;

function toAutoTopupResult(row: CreditBalanceRow): AutoTopupResult {
  return {
    user_id: row.user_id,
    auto_topup_enabled: row.auto_topup_enabled,
    auto_topup_amount: row.auto_topup_amount,
    auto_topup_threshold: row.auto_topup_threshold,
    has_payment_method: row.cardpsp_payment_method_id !== null,
    balance: row.balance,
    currency: "USD",
  };
}

async function wallet(ctx: RpcContext, userId: string): Promise<CreditBalanceRow> {
  await ensureWallet(ctx.em, userId, ctx.now());
  const row = await findWallet(ctx.em, userId);
  if (!row) throw new Error(`wallet of ${userId} vanished`);
  return row;
}

/** Turns automatic top-up on (a saved card is needed: a confirmed card top-up saves one). */
export const setupAutoTopup: Handlers["setupAutoTopup"] = async (ctx, { user_id, amount, threshold }) => {
  if (!isValidAmount(amount) || amount < CREDIT_PRICING.auto_topup_min_amount) {
    throw creditError("InvalidAmount", "amount must be at least the automatic top-up minimum, two decimals at most", {
      min: CREDIT_PRICING.auto_topup_min_amount,
    });
  }
  if (threshold !== 0 && !isValidAmount(threshold)) {
    throw creditError("InvalidAmount", "threshold must be 0 or more with at most two decimals", { threshold });
  }
  const before = await wallet(ctx, user_id);
  if (before.cardpsp_payment_method_id === null) {
    throw creditError("InvalidState", "no saved card: top up once by card (initiate_topup with cardpsp) first");
  }
  await enableAutoTopUp(ctx.em, user_id, amount, threshold, ctx.now());
  return toAutoTopupResult(await wallet(ctx, user_id));
};

/** Turns automatic top-up off; the figures stay for a later setup. */
export const disableAutoTopup: Handlers["disableAutoTopup"] = async (ctx, { user_id }) => {
  await wallet(ctx, user_id);
  await disableAutoTopUp(ctx.em, user_id, ctx.now());
  return toAutoTopupResult(await wallet(ctx, user_id));
};
