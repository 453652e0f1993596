import type { TreasuryServiceFundAccountParams, TreasuryTransactionResult } from "../../../../generated/types.ts";
import { uuidv7 } from "../../../domain/ids.ts";
import { fromCents } from "../../../domain/money.ts";
import { isRefusal } from "../../../domain/refusal.ts";
import { movementAmount } from "../../../domain/treasury.ts";
import { findAccount } from "../../../repos/treasury-accounts.ts";
import { credit, insertLedgerRow, lockAccounts } from "../../../repos/treasury-ledger.ts";
import { recordAdminAction } from "../../../rpc/admin-actions.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { requireOperableCompany, treasuryError } from "./accounts.ts";
import { toTransactionResult } from "./mappers.ts";

/**
 * treasuryservice.fund_account: the sandbox's way money enters treasury accounts (tests, demos). Administrators
 * only (the dispatcher checked the session), and only while config.treasury.sandboxFunding is on. The credit is a
 * confirmed `credit` row with the balance after, in the same transaction as the balance update, plus an AdminAction.
 */
export async function fundAccount(
  ctx: RpcContext,
  { account_id, amount, currency, description }: TreasuryServiceFundAccountParams,
): Promise<TreasuryTransactionResult> {
  if (!ctx.config.treasury.sandboxFunding) {
    throw treasuryError("Forbidden", "sandbox funding is off in this deployment (TREASURY_SANDBOX_FUNDING)");
  }
  const cents = movementAmount(amount);
  if (isRefusal(cents)) throw treasuryError("InvalidAmount", cents.message, cents.details);
  if ((await lockAccounts(ctx.em, [account_id])).length === 0) throw treasuryError.notFound("account");
  const account = await findAccount(ctx.em, account_id);
  if (!account) throw treasuryError.notFound("account");
  if (currency !== account.currency) {
    throw treasuryError("CurrencyMismatch", `the account holds ${account.currency}`, {
      currency,
      account_currency: account.currency,
    });
  }
  if (!account.is_active) throw treasuryError("InvalidState", "the account is inactive");
  if (account.owner_type === "company") await requireOperableCompany(ctx, account.owner_id);
  const now = ctx.now();
  const balanceAfter = await credit(ctx.em, account.sid, cents, now);
  const adminActionId = recordAdminAction(ctx, {
    action: "fund_treasury_account",
    targetType: "treasury_account",
    targetId: account.sid,
    details: { owner_type: account.owner_type, owner_id: account.owner_id, amount: fromCents(cents), currency },
  });
  const row = insertLedgerRow(ctx.em, {
    sid: uuidv7(now),
    account_id: account.sid,
    owner_type: account.owner_type,
    owner_id: account.owner_id,
    tx_type: "credit",
    amount: fromCents(cents),
    currency,
    balance_after: fromCents(balanceAfter),
    description: description?.trim() || "sandbox funding",
    reference: adminActionId,
    counterparty: "sandbox",
    fund_transfer_id: null,
    exchange_id: null,
    transaction_hash: null,
    status: "confirmed",
    confirmed_at: now,
    created_at: now,
    updated_at: now,
  });
  return toTransactionResult(row);
}
