import type { FundTransferRow, TreasuryAccountRow } from "../../../../generated/entities.ts";
import type { TreasuryTransactionType } from "../../../../generated/types.ts";
import { uuidv7 } from "../../../domain/ids.ts";
import { type Cents, fromCents, toCents } from "../../../domain/money.ts";
import { isRefusal, type Refusal } from "../../../domain/refusal.ts";
import { movementAmount } from "../../../domain/treasury.ts";
import { requireCompanyOperable } from "../../../repos/companies.ts";
import { findAccount } from "../../../repos/treasury-accounts.ts";
import { figuresOf, insertLedgerRow } from "../../../repos/treasury-ledger.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { errorsFor } from "../../../rpc/service-errors.ts";
import { type Standing, standingTowards } from "./standing.ts";

export const opsError = errorsFor("TreasuryOperationsService", "TreasuryOperationsError");

export function opsRefused(r: Refusal): Error {
  return opsError(r.refusal as never, r.message, r.details);
}

/** The account and the caller's standing towards its owner; an account the caller may not see is NotFound. */
export async function visibleAccount(
  ctx: RpcContext,
  accountId: string,
): Promise<{ account: TreasuryAccountRow; standing: Standing }> {
  const account = await findAccount(ctx.em, accountId);
  if (!account) throw opsError.notFound("account");
  const standing = await standingTowards(ctx, account.owner_type, account.owner_id);
  if (!standing.see) throw opsError.notFound("account");
  return { account, standing };
}

/** The account the caller moves money from: visible, and the caller may move its money (else Forbidden). */
export async function movableAccount(ctx: RpcContext, accountId: string): Promise<TreasuryAccountRow> {
  const { account, standing } = await visibleAccount(ctx, accountId);
  if (!standing.move) {
    throw opsError("Forbidden", "only a current director of the owning company or the owning resident moves its money");
  }
  return account;
}

export function requireCurrency(account: TreasuryAccountRow, currency: string): void {
  if (account.currency !== currency) {
    throw opsError("CurrencyMismatch", `account ${account.sid} holds ${account.currency}, not ${currency}`, {
      account_id: account.sid,
      currency,
      account_currency: account.currency,
    });
  }
}

export function requireActive(account: TreasuryAccountRow): void {
  if (!account.is_active)
    throw opsError("InvalidState", `account ${account.sid} is inactive`, { account_id: account.sid });
}

/**
 * The company status guard (src/domain/company-status.ts) for an account a movement touches: a company's account
 * moves money only while the company may operate (InvalidState with `status`); residents' accounts pass.
 */
export async function requireOperableOwner(ctx: RpcContext, account: TreasuryAccountRow): Promise<void> {
  if (account.owner_type !== "company") return;
  await requireCompanyOperable(ctx.em, account.owner_id, (r) => opsError(r.refusal, r.message, r.details));
}

/** InsufficientFunds with what is available now (the refusal writes nothing: the call rolls back). */
export async function insufficient(ctx: RpcContext, accountId: string, needed: Cents): Promise<Error> {
  const figures = await figuresOf(ctx.em, accountId);
  const available = figures ? figures.balance - figures.pendingOut : 0;
  return opsError("InsufficientFunds", "the available balance does not cover it", {
    available: fromCents(available),
    needed: fromCents(needed),
  });
}

export interface LedgerEntry {
  account: TreasuryAccountRow;
  txType: TreasuryTransactionType;
  amount: Cents;
  balanceAfter: Cents;
  description: string;
  reference: string | null;
  counterparty: string | null;
  fundTransferId?: string;
  exchangeId?: string;
  status: "pending" | "confirmed";
}

/** One TreasuryTransaction row carrying the balance the conditional update returned. */
export function writeLedger(ctx: RpcContext, entry: LedgerEntry): string {
  const now = ctx.now();
  const row = insertLedgerRow(ctx.em, {
    sid: uuidv7(now),
    account_id: entry.account.sid,
    owner_type: entry.account.owner_type,
    owner_id: entry.account.owner_id,
    tx_type: entry.txType,
    amount: fromCents(entry.amount),
    currency: entry.account.currency,
    balance_after: fromCents(entry.balanceAfter),
    description: entry.description,
    reference: entry.reference,
    counterparty: entry.counterparty,
    fund_transfer_id: entry.fundTransferId ?? null,
    exchange_id: entry.exchangeId ?? null,
    transaction_hash: null,
    status: entry.status,
    confirmed_at: entry.status === "confirmed" ? now : null,
    created_at: now,
    updated_at: now,
  });
  return row.sid;
}

/** What a pending transfer holds back on its source account: the amount plus the fee (external ones). */
export function reservedOf(transfer: Pick<FundTransferRow, "amount" | "fee_amount">): Cents {
  return toCents(transfer.amount) + toCents(transfer.fee_amount ?? 0);
}

/** The most characters a transfer reference carries. */
export const MAX_TRANSFER_REFERENCE = 140;

export function referenceOf(raw: string | undefined): string | null {
  const value = raw?.trim() ?? "";
  if (value.length > MAX_TRANSFER_REFERENCE) {
    throw opsError("InvalidInput", `reference is longer than ${MAX_TRANSFER_REFERENCE} characters`, {
      field: "reference",
    });
  }
  return value.length > 0 ? value : null;
}

export function amountCents(amount: number): Cents {
  const cents = movementAmount(amount);
  if (isRefusal(cents)) throw opsRefused(cents);
  return cents;
}
