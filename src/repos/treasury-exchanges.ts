import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import {
  ExchangeQuoteEntity,
  type ExchangeQuoteRow,
  ExchangeTransactionEntity,
  type ExchangeTransactionRow,
} from "../../generated/entities.ts";
import type { EntityType } from "../../generated/types.ts";
import { affected } from "../db/sql.ts";
import { TREASURY_LIST_LIMIT } from "../domain/treasury.ts";

/** The ExchangeQuote and ExchangeTransaction tables: server-issued quotes and the exchanges that used them. */

export function insertQuote(em: EntityManager, row: RequiredEntityData<ExchangeQuoteRow>): ExchangeQuoteRow {
  return em.create(ExchangeQuoteEntity, row);
}

/**
 * The caller's quotes for this pair and amount, newest first: an exchange without quote_id is matched against
 * them (the unused unexpired one at the asked rate wins; the others tell why it would be refused).
 */
export function candidateQuotes(
  em: EntityManager,
  userId: string,
  fromCurrency: string,
  toCurrency: string,
  fromAmount: number,
): Promise<ExchangeQuoteRow[]> {
  return em.find(
    ExchangeQuoteEntity,
    { user_id: userId, from_currency: fromCurrency, to_currency: toCurrency, from_amount: fromAmount },
    { orderBy: { sid: "desc" }, limit: 100, refresh: true },
  );
}

/** Marks the quote used by the exchange, once, and only before it expires: false when it lost that race. */
export async function claimQuote(em: EntityManager, quoteId: string, exchangeId: string, now: Date): Promise<boolean> {
  const n = await affected(
    em,
    `update "exchange_quote" set exchange_id = ?, updated_at = ? where sid = ? and exchange_id is null and expires_at > ?`,
    [exchangeId, now, quoteId, now],
  );
  return n === 1;
}

export function insertExchange(
  em: EntityManager,
  row: RequiredEntityData<ExchangeTransactionRow>,
): ExchangeTransactionRow {
  return em.create(ExchangeTransactionEntity, row);
}

export function listExchanges(
  em: EntityManager,
  ownerType: EntityType,
  ownerId: string,
): Promise<ExchangeTransactionRow[]> {
  return em.find(
    ExchangeTransactionEntity,
    { owner_type: ownerType, owner_id: ownerId },
    { orderBy: { sid: "desc" }, limit: TREASURY_LIST_LIMIT },
  );
}

/** Deletes quotes that expired unused before `before` (they can never be used); answers how many. */
export function deleteStaleQuotes(em: EntityManager, before: Date): Promise<number> {
  return affected(em, `delete from "exchange_quote" where exchange_id is null and expires_at < ?`, [before]);
}
