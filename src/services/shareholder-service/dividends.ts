import type { DividendDistributionRow, DividendPaymentRow } from "../../../generated/entities.ts";
import type { ShareholderServiceHandlers } from "../../../generated/handlers/index.ts";
import type { DividendResult } from "../../../generated/types.ts";
import {
  distributionDateRefusal,
  dividendHoldings,
  executionRefusal,
  splitByOwnership,
} from "../../domain/dividends.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { fromCents, toCents } from "../../domain/money.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { movementAmount } from "../../domain/treasury.ts";
import * as repo from "../../repos/dividends.ts";
import { findProposal } from "../../repos/proposals.ts";
import { findAccount } from "../../repos/treasury-accounts.ts";
import { credit, debitAvailable, figuresOf, lockAccounts } from "../../repos/treasury-ledger.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { openProposal } from "../governance-service/proposals.ts";
import { moveOut } from "../shared/money-out.ts";
import { writeLedger } from "../shared/treasury/operations.ts";
import { recordIfAdmin, refused, shareholderError } from "./common.ts";

type Handlers = ShareholderServiceHandlers<RpcContext>;

/*
 * Dividends (issue 17; docs/decisions.md "Share transfers and dividends"). initiate: split by the cap table now
 * (largest remainder, exact to the cent), `approved`, or `proposed` with an ordinary financial proposal when
 * DIVIDEND_REQUIRES_VOTE. execute: one debit of the total from the source, a credit per holder with a treasury
 * account in the currency; holders without one keep an unpaid payment (status stays `processing`) that a later
 * execute pays once they have opened one; `completed` when every payment is paid; executing a completed one is a
 * no-op.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toDividendResult(row: DividendDistributionRow, payments: DividendPaymentRow[]): DividendResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    total_amount: row.total_amount,
    currency: row.currency,
    source_account_id: row.source_account_id,
    distribution_date: row.distribution_date.toISOString(),
    status: row.status,
    requires_vote: row.requires_vote,
    proposal_id: row.proposal_id,
    initiated_by: row.initiated_by,
    approved_at: iso(row.approved_at),
    completed_at: iso(row.completed_at),
    created_at: row.created_at.toISOString(),
    payments: payments.map((p) => ({
      sid: p.sid,
      recipient_id: p.recipient_id,
      ownership_percentage: p.ownership_percentage,
      amount: p.amount,
      currency: p.currency,
      destination_account_id: p.destination_account_id,
      transaction_id: p.transaction_id,
      paid_at: iso(p.paid_at),
    })),
  };
}

async function resultOf(ctx: RpcContext, sid: string): Promise<DividendResult> {
  const row = await repo.findDistribution(ctx.em, sid);
  if (!row) throw shareholderError.notFound("dividend");
  return toDividendResult(row, await repo.paymentsOf(ctx.em, [sid]));
}

async function requireCovered(ctx: RpcContext, accountId: string, cents: number): Promise<void> {
  const figures = await figuresOf(ctx.em, accountId);
  const available = figures ? figures.balance - figures.pendingOut : 0;
  if (available < cents) {
    throw shareholderError("InsufficientFunds", "the source account's available balance does not cover the dividend", {
      available: fromCents(available),
      needed: fromCents(cents),
    });
  }
}

export const initiateDividend: Handlers["initiateDividend"] = async (ctx, p) => {
  const cents = movementAmount(p.total_amount, "total_amount");
  if (isRefusal(cents)) throw refused(cents);
  const now = ctx.now();
  const date = new Date(p.distribution_date);
  const badDate = distributionDateRefusal(date, now);
  if (badDate) throw refused(badDate);
  const account = await findAccount(ctx.em, p.source_account_id);
  if (account?.owner_type !== "company" || account.owner_id !== p.company_id) {
    throw shareholderError.notFound("source account");
  }
  if (account.currency !== p.currency) {
    throw shareholderError("InvalidInput", `the source account holds ${account.currency}, not ${p.currency}`, {
      field: "currency",
    });
  }
  if (!account.is_active)
    throw shareholderError("InvalidInput", "the source account is inactive", { field: "source_account_id" });
  await lockAccounts(ctx.em, [account.sid]);
  await requireCovered(ctx, account.sid, cents);
  const holdings = dividendHoldings(ctx.target.row.shareholders);
  if (isRefusal(holdings)) throw refused(holdings);

  let proposalId: string | null = null;
  const requiresVote = ctx.config.dividends.requireVote;
  if (requiresVote) {
    const proposal = await openProposal(ctx, {
      companyId: p.company_id,
      proposerId: p.initiated_by,
      title: `Dividend of ${fromCents(cents).toFixed(2)} ${p.currency}`,
      description: `Distribution of ${fromCents(cents).toFixed(2)} ${p.currency} from treasury account ${account.sid} to the holders pro rata to their units, due ${date.toISOString()}.`,
      category: "financial",
      kind: "ordinary",
      votingDays: ctx.config.dividends.voteDays,
      allowAbstention: true,
    });
    if (isRefusal(proposal)) throw refused(proposal);
    proposalId = proposal.sid;
  }
  const sid = uuidv7(now);
  const row: DividendDistributionRow = {
    sid,
    company_id: p.company_id,
    total_amount: fromCents(cents),
    currency: p.currency,
    source_account_id: account.sid,
    distribution_date: date,
    status: requiresVote ? "proposed" : "approved",
    requires_vote: requiresVote,
    proposal_id: proposalId,
    initiated_by: p.initiated_by,
    approved_at: requiresVote ? null : now,
    completed_at: null,
    created_at: now,
    updated_at: now,
  };
  const payments: DividendPaymentRow[] = splitByOwnership(cents, holdings).map((s) => ({
    sid: uuidv7(now),
    distribution_id: sid,
    company_id: p.company_id,
    recipient_id: s.recipientId,
    ownership_percentage: s.ownershipPercentage,
    amount: fromCents(s.cents),
    currency: p.currency,
    destination_account_id: null,
    transaction_id: null,
    paid_at: null,
    created_at: now,
    updated_at: now,
  }));
  await repo.insertDistribution(ctx.em, row, payments);
  return resultOf(ctx, sid);
};

/** Credits each unpaid payment whose holder has an active account in the currency; whether all are paid now. */
async function payWhatCan(ctx: RpcContext, row: DividendDistributionRow): Promise<boolean> {
  const now = ctx.now();
  const unpaid = (await repo.paymentsOf(ctx.em, [row.sid])).filter((p) => p.paid_at === null);
  let allPaid = true;
  for (const payment of unpaid) {
    const found = await repo.payoutAccountOf(ctx.em, payment.recipient_id, row.currency);
    if (!found) {
      allPaid = false;
      continue;
    }
    await lockAccounts(ctx.em, [found.sid]);
    const account = await findAccount(ctx.em, found.sid);
    if (!account?.is_active) {
      allPaid = false;
      continue;
    }
    const cents = toCents(payment.amount);
    const after = await credit(ctx.em, account.sid, cents, now);
    const txId = writeLedger(ctx, {
      account,
      txType: "credit",
      amount: cents,
      balanceAfter: after,
      description: "Dividend",
      reference: `dividend:${row.sid}`,
      counterparty: row.source_account_id,
      status: "confirmed",
    });
    if (!(await repo.markPaid(ctx.em, payment.sid, account.sid, txId, now))) {
      throw shareholderError("InvalidState", "the dividend is being paid by another call");
    }
  }
  return allPaid;
}

export const executeDividend: Handlers["executeDividend"] = async (ctx) => {
  const found = ctx.target.row;
  if (found.status === "completed") return toDividendResult(found, await repo.paymentsOf(ctx.em, [found.sid]));
  // Every execution from this source holds its lock first: concurrent executions of one dividend run one after
  // the other, and the later one sees what the earlier one did (a completed dividend: nothing more to do).
  await lockAccounts(ctx.em, [found.source_account_id]);
  const row = await repo.findDistribution(ctx.em, found.sid);
  if (!row) throw shareholderError.notFound("dividend");
  if (row.status === "completed") return resultOf(ctx, row.sid);
  const now = ctx.now();
  if (row.status !== "processing") {
    const proposal = row.proposal_id ? await findProposal(ctx.em, row.proposal_id) : null;
    const passed = proposal !== null && (proposal.status === "passed" || proposal.status === "executed");
    const bad = executionRefusal(row.status, passed, row.distribution_date, now);
    if (bad) throw refused(bad);
    if (!(await repo.moveDistribution(ctx.em, row.sid, ["approved", "proposed"], "processing", {}, now))) {
      throw shareholderError("InvalidState", "the dividend moved meanwhile");
    }
    const source = await findAccount(ctx.em, row.source_account_id);
    const cents = toCents(row.total_amount);
    const after = source?.is_active
      ? await moveOut(ctx, { cents, currency: source.currency }, () =>
          debitAvailable(ctx.em, row.source_account_id, cents, now),
        )
      : null;
    if (!source || after === null) {
      await requireCovered(ctx, row.source_account_id, cents);
      throw shareholderError("InsufficientFunds", "the source account is inactive");
    }
    writeLedger(ctx, {
      account: source,
      txType: "debit",
      amount: cents,
      balanceAfter: after,
      description: "Dividend distribution",
      reference: `dividend:${row.sid}`,
      counterparty: null,
      status: "confirmed",
    });
  }
  if (await payWhatCan(ctx, row)) {
    await repo.moveDistribution(ctx.em, row.sid, ["processing"], "completed", { completed_at: now }, now);
  }
  recordIfAdmin(ctx, "execute_dividend", row.company_id, { dividend_id: row.sid });
  return resultOf(ctx, row.sid);
};

export const listDividends: Handlers["listDividends"] = async (ctx, p) => {
  const rows = await repo.listDistributions(ctx.em, p.company_id);
  const payments = await repo.paymentsOf(
    ctx.em,
    rows.map((r) => r.sid),
  );
  return {
    items: rows.map((r) =>
      toDividendResult(
        r,
        payments.filter((x) => x.distribution_id === r.sid),
      ),
    ),
  };
};
