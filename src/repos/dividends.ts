import type { EntityManager } from "@mikro-orm/postgresql";
import {
  DividendDistributionEntity,
  type DividendDistributionRow,
  DividendPaymentEntity,
  type DividendPaymentRow,
  TreasuryAccountEntity,
  type TreasuryAccountRow,
} from "../../generated/entities.ts";
import type { DividendStatus } from "../../generated/types.ts";

/** DividendDistribution and DividendPayment rows; money moves through src/repos/treasury-ledger.ts. */

export async function insertDistribution(
  em: EntityManager,
  row: DividendDistributionRow,
  payments: DividendPaymentRow[],
): Promise<void> {
  await em.insert(DividendDistributionEntity, row);
  if (payments.length > 0) await em.insertMany(DividendPaymentEntity, payments);
}

export function findDistribution(em: EntityManager, sid: string): Promise<DividendDistributionRow | null> {
  return em.findOne(DividendDistributionEntity, { sid }, { disableIdentityMap: true });
}

/** The payments of the distributions, largest share first (then by recipient). */
export function paymentsOf(em: EntityManager, distributionIds: string[]): Promise<DividendPaymentRow[]> {
  if (distributionIds.length === 0) return Promise.resolve([]);
  return em.find(
    DividendPaymentEntity,
    { distribution_id: { $in: distributionIds } },
    { orderBy: { ownership_percentage: "desc", recipient_id: "asc" }, disableIdentityMap: true },
  );
}

/** The most distributions a list answers. */
export const DIVIDEND_LIST_LIMIT = 100;

export function listDistributions(em: EntityManager, companyId: string): Promise<DividendDistributionRow[]> {
  return em.find(
    DividendDistributionEntity,
    { company_id: companyId },
    { orderBy: { created_at: "desc", sid: "desc" }, limit: DIVIDEND_LIST_LIMIT, disableIdentityMap: true },
  );
}

/** Moves the distribution to `to` only while its status is one of `from`; false when another move won. */
export async function moveDistribution(
  em: EntityManager,
  sid: string,
  from: readonly DividendStatus[],
  to: DividendStatus,
  fields: Partial<Pick<DividendDistributionRow, "approved_at" | "completed_at">>,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    DividendDistributionEntity,
    { sid, status: { $in: [...from] } },
    { ...fields, status: to, updated_at: now },
  );
  return n === 1;
}

/**
 * The vote on a `proposed` dividend has ended (issue 30): a passed proposal approves it (approved_at, the tally's
 * instant), a rejected or expired one cancels it. Conditional on `proposed`, so it moves once.
 */
export async function settleDividendVotes(
  em: EntityManager,
  proposalIds: readonly string[],
  passed: boolean,
  now: Date,
): Promise<void> {
  if (proposalIds.length === 0) return;
  await em.nativeUpdate(
    DividendDistributionEntity,
    { proposal_id: { $in: [...proposalIds] }, status: "proposed" },
    passed ? { status: "approved", approved_at: now, updated_at: now } : { status: "cancelled", updated_at: now },
  );
}

/** Marks a payment paid once (conditional on it being unpaid); false when it was paid meanwhile. */
export async function markPaid(
  em: EntityManager,
  paymentSid: string,
  destinationAccountId: string,
  transactionId: string,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    DividendPaymentEntity,
    { sid: paymentSid, paid_at: null },
    { destination_account_id: destinationAccountId, transaction_id: transactionId, paid_at: now, updated_at: now },
  );
  return n === 1;
}

/** The holder's first active treasury account in the currency (resident or company, by its formatted id), or null. */
export function payoutAccountOf(
  em: EntityManager,
  recipientId: string,
  currency: string,
): Promise<TreasuryAccountRow | null> {
  return em.findOne(
    TreasuryAccountEntity,
    { owner_id: recipientId, currency, is_active: true },
    { orderBy: { sid: "asc" }, disableIdentityMap: true },
  );
}
