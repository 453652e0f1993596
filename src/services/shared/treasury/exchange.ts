import type { ExchangeQuoteRow, TreasuryAccountRow } from "../../../../generated/entities.ts";
import type { Targeted } from "../../../../generated/policy.ts";
import type {
  ExchangeQuoteResult,
  ExchangeResult,
  TreasuryOperationsServiceExecuteExchangeParams,
  TreasuryOperationsServiceGetExchangeQuoteParams,
  TreasuryOperationsServiceListExchangesParams,
} from "../../../../generated/types.ts";
import { uuidv7 } from "../../../domain/ids.ts";
import { fromCents, toCents } from "../../../domain/money.ts";
import { isRefusal, type Refusal } from "../../../domain/refusal.ts";
import { crossRate, quoteFigures, quoteRefusal, treasuryCurrency } from "../../../domain/treasury.ts";
import { QuoteProviderUnavailable, quoteRateProvider } from "../../../integrations/fx/quotes.ts";
import { findAccount, findOwnedAccount } from "../../../repos/treasury-accounts.ts";
import * as exchanges from "../../../repos/treasury-exchanges.ts";
import { credit, debitAvailable, lockAccounts } from "../../../repos/treasury-ledger.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { moveOut } from "../money-out.ts";
import { toExchangeResult, toQuoteResult } from "./mappers.ts";
import {
  amountCents,
  insufficient,
  opsError,
  opsRefused,
  requireActive,
  requireCurrency,
  writeLedger,
} from "./operations.ts";

/*
 * Currency exchange at server-issued quotes (issue 15, docs/decisions.md "Treasury"). get_exchange_quote stores
 * the rate, amounts, currencies and requester with an expiry (ExchangeQuote); execute_exchange accepts only an
 * unexpired, unused quote of the caller matching exactly, claims it once (conditional update) and settles at once:
 * a `debit` of from_amount on the source and a `credit` of to_amount on the destination, under both row locks.
 */

async function eurValue(ctx: RpcContext, currency: string): Promise<number> {
  const known = treasuryCurrency(currency);
  if (isRefusal(known)) throw opsRefused(known);
  try {
    const value = await quoteRateProvider(ctx.config).eurValue(currency, ctx.now());
    if (value === null) throw opsError("InvalidInput", `no rate for ${currency}`, { field: "currency" });
    return value;
  } catch (err) {
    if (err instanceof QuoteProviderUnavailable) throw opsError("ProviderUnavailable", err.message);
    throw err;
  }
}

export async function getExchangeQuote(
  ctx: RpcContext,
  { from_currency, to_currency, amount }: TreasuryOperationsServiceGetExchangeQuoteParams,
): Promise<ExchangeQuoteResult> {
  const cents = amountCents(amount);
  if (from_currency === to_currency) {
    throw opsError("InvalidInput", "an exchange needs two different currencies", { field: "to_currency" });
  }
  const rate = crossRate(await eurValue(ctx, from_currency), await eurValue(ctx, to_currency));
  const feePercent = ctx.config.treasury.exchangeFeePercent;
  const figures = quoteFigures(cents, rate, feePercent);
  if (isRefusal(figures)) throw opsRefused(figures);
  const now = ctx.now();
  const row = exchanges.insertQuote(ctx.em, {
    sid: uuidv7(now),
    user_id: requireCaller(ctx).userId,
    from_currency,
    to_currency,
    from_amount: fromCents(cents),
    exchange_rate: rate,
    fee_percentage: feePercent,
    fee_amount: fromCents(figures.fee),
    to_amount: fromCents(figures.toAmount),
    expires_at: new Date(now.getTime() + ctx.config.treasury.quoteTtlS * 1000),
    exchange_id: null,
    created_at: now,
    updated_at: now,
  });
  return toQuoteResult(row);
}

type QuoteRefusal = Refusal<"QuoteMismatch" | "Expired" | "AlreadyUsed">;

/**
 * The caller's quotes that cover the exchange (newest first), or the most telling refusal among the caller's
 * quotes for the pair and amount: Expired, then AlreadyUsed, else QuoteMismatch. Another caller's quotes are never
 * searched, so they can only be a mismatch.
 */
async function coveringQuotes(
  ctx: RpcContext,
  p: TreasuryOperationsServiceExecuteExchangeParams,
  toCurrency: string,
): Promise<ExchangeQuoteRow[]> {
  const ask = {
    userId: requireCaller(ctx).userId,
    fromCurrency: p.from_currency,
    toCurrency,
    fromAmount: p.from_amount,
    rate: p.exchange_rate,
  };
  const now = ctx.now();
  const candidates = await exchanges.candidateQuotes(ctx.em, ask.userId, p.from_currency, toCurrency, p.from_amount);
  const verdicts = candidates.map((q) => ({ q, bad: quoteRefusal(q, ask, now) }));
  const good = verdicts.filter((v) => v.bad === null).map((v) => v.q);
  if (good.length > 0) return good;
  const telling = ["Expired", "AlreadyUsed"]
    .map((variant) => verdicts.find((v) => v.bad?.refusal === variant)?.bad)
    .find((b) => b !== undefined);
  throw opsRefused(telling ?? mismatch());
}

/** Claims the first covering quote still unused and unexpired (a concurrent exchange may take one first). */
async function claimOne(ctx: RpcContext, quotes: ExchangeQuoteRow[], exchangeId: string): Promise<ExchangeQuoteRow> {
  for (const quote of quotes) {
    if (await exchanges.claimQuote(ctx.em, quote.sid, exchangeId, ctx.now())) return quote;
  }
  throw opsError("AlreadyUsed", "the quote was used (or expired) meanwhile");
}

function mismatch(): QuoteRefusal {
  return { refusal: "QuoteMismatch", message: "the exchange does not match a quote the server issued to you" };
}

export async function executeExchange(
  ctx: Targeted<RpcContext, TreasuryAccountRow>,
  p: TreasuryOperationsServiceExecuteExchangeParams,
): Promise<ExchangeResult> {
  // The dispatcher authorized the source account (x-target); both accounts must belong to the owner named.
  const from = ctx.target.row;
  const to = await findOwnedAccount(ctx.em, p.owner_type, p.owner_id, p.to_account_id);
  if (from.owner_type !== p.owner_type || from.owner_id !== p.owner_id || !to) throw opsError.notFound("account");
  requireCurrency(from, p.from_currency);
  if (to.currency === from.currency) {
    throw opsError("CurrencyMismatch", "an exchange needs accounts in two different currencies", {
      account_currency: to.currency,
    });
  }
  const cents = amountCents(p.from_amount);
  const quotes = await coveringQuotes(ctx, p, to.currency);
  await lockAccounts(ctx.em, [from.sid, to.sid]);
  const [lockedFrom, lockedTo] = [await findAccount(ctx.em, from.sid), await findAccount(ctx.em, to.sid)];
  if (!lockedFrom || !lockedTo) throw opsError.notFound("account");
  requireActive(lockedFrom);
  requireActive(lockedTo);
  const now = ctx.now();
  const exchangeId = uuidv7(now);
  const quote = await claimOne(ctx, quotes, exchangeId);
  const toCentsAmount = toCents(quote.to_amount);
  const fromAfter = await moveOut(ctx, { cents, currency: from.currency }, () =>
    debitAvailable(ctx.em, from.sid, cents, now),
  );
  if (fromAfter === null) throw await insufficient(ctx, from.sid, cents);
  const toAfter = await credit(ctx.em, to.sid, toCentsAmount, now);
  const row = exchanges.insertExchange(ctx.em, {
    sid: exchangeId,
    owner_type: p.owner_type,
    owner_id: p.owner_id,
    from_account_id: from.sid,
    to_account_id: to.sid,
    from_amount: fromCents(cents),
    from_currency: from.currency,
    to_amount: quote.to_amount,
    to_currency: to.currency,
    exchange_rate: quote.exchange_rate,
    fee_percentage: quote.fee_percentage,
    fee_amount: quote.fee_amount,
    status: "completed",
    rate_expires_at: quote.expires_at,
    initiated_by: p.initiated_by,
    completed_at: now,
    created_at: now,
    updated_at: now,
  });
  const common = { reference: `quote ${quote.sid}`, exchangeId, status: "confirmed" as const };
  writeLedger(ctx, {
    ...common,
    account: lockedFrom,
    txType: "debit",
    amount: cents,
    balanceAfter: fromAfter,
    description: `Exchange ${from.currency} to ${to.currency} at ${quote.exchange_rate} (fee ${quote.fee_amount} ${from.currency} included)`,
    counterparty: to.sid,
  });
  writeLedger(ctx, {
    ...common,
    account: lockedTo,
    txType: "credit",
    amount: toCentsAmount,
    balanceAfter: toAfter,
    description: `Exchange ${from.currency} to ${to.currency} at ${quote.exchange_rate}`,
    counterparty: from.sid,
  });
  return toExchangeResult(row);
}

export async function listExchanges(
  ctx: RpcContext,
  { owner_type, owner_id }: TreasuryOperationsServiceListExchangesParams,
) {
  // The dispatcher authorized owner_id (x-target: a company's member, or a resident's owner or proxy).
  return { items: (await exchanges.listExchanges(ctx.em, owner_type, owner_id)).map(toExchangeResult) };
}
