import type { FundTransferRow, TreasuryAccountRow } from "../../../../generated/entities.ts";
import type { Targeted } from "../../../../generated/policy.ts";
import type {
  FundTransferResult,
  TreasuryOperationsServiceApproveTransferParams,
  TreasuryOperationsServiceCancelTransferParams,
  TreasuryOperationsServiceInitiateTransferParams,
  TreasuryOperationsServiceListTransfersParams,
} from "../../../../generated/types.ts";
import { uuidv7 } from "../../../domain/ids.ts";
import { fromCents, toCents } from "../../../domain/money.ts";
import { needsApproval, selfApprovalRefusal, transferMoveRefusal } from "../../../domain/treasury.ts";
import { findAccount } from "../../../repos/treasury-accounts.ts";
import {
  credit,
  debitAvailable,
  debitReserved,
  lockAccounts,
  release,
  reserve,
} from "../../../repos/treasury-ledger.ts";
import * as transfers from "../../../repos/treasury-transfers.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { moveOut } from "../money-out.ts";
import { approveExternal } from "./external.ts";
import { toTransferResult } from "./mappers.ts";
import {
  amountCents,
  insufficient,
  opsError,
  opsRefused,
  referenceOf,
  requireActive,
  requireCurrency,
  requireOperableOwner,
  reservedOf,
  writeLedger,
} from "./operations.ts";

/*
 * Internal transfers, approval and cancellation (issue 15, docs/decisions.md "Treasury"). Money moves under the
 * row locks of both accounts (taken in sid order), by conditional updates, each followed by its ledger row; a
 * transfer above the source's threshold reserves the amount (pending_out) until it is approved or cancelled.
 */

/** Debits the source (reserved or available), credits the destination, writes both ledger rows; the debit row's sid. */
async function moveInternal(
  ctx: RpcContext,
  transfer: FundTransferRow,
  from: TreasuryAccountRow,
  to: TreasuryAccountRow,
  reserved: boolean,
): Promise<string> {
  const cents = toCents(transfer.amount);
  const now = ctx.now();
  const fromAfter = await moveOut(ctx, { cents, currency: from.currency }, () =>
    reserved ? debitReserved(ctx.em, from.sid, cents, now) : debitAvailable(ctx.em, from.sid, cents, now),
  );
  if (fromAfter === null) throw await insufficient(ctx, from.sid, cents);
  const toAfter = await credit(ctx.em, to.sid, cents, now);
  const common = {
    amount: cents,
    reference: transfer.reference,
    fundTransferId: transfer.sid,
    status: "confirmed" as const,
  };
  const debitId = writeLedger(ctx, {
    ...common,
    account: from,
    txType: "debit",
    balanceAfter: fromAfter,
    description: "Transfer out",
    counterparty: to.sid,
  });
  writeLedger(ctx, {
    ...common,
    account: to,
    txType: "credit",
    balanceAfter: toAfter,
    description: "Transfer in",
    counterparty: from.sid,
  });
  return debitId;
}

export async function initiateTransfer(
  ctx: Targeted<RpcContext, TreasuryAccountRow>,
  p: TreasuryOperationsServiceInitiateTransferParams,
): Promise<FundTransferResult> {
  const cents = amountCents(p.amount);
  const reference = referenceOf(p.reference);
  if (p.from_account_id === p.to_account_id) {
    throw opsError("InvalidInput", "a transfer needs two different accounts", { field: "to_account_id" });
  }
  const from = ctx.target.row;
  const to = await findAccount(ctx.em, p.to_account_id);
  if (!to) throw opsError.notFound("destination account");
  requireCurrency(from, p.currency);
  requireCurrency(to, p.currency);
  await lockAccounts(ctx.em, [from.sid, to.sid]);
  const [lockedFrom, lockedTo] = [await findAccount(ctx.em, from.sid), await findAccount(ctx.em, to.sid)];
  if (!lockedFrom || !lockedTo) throw opsError.notFound("account");
  requireActive(lockedFrom);
  requireActive(lockedTo);
  await requireOperableOwner(ctx, lockedTo);
  const now = ctx.now();
  const pending = needsApproval(cents, lockedFrom.approval_threshold);
  const transfer = transfers.insertTransfer(ctx.em, {
    sid: uuidv7(now),
    from_account_id: from.sid,
    to_account_id: to.sid,
    to_external_address: null,
    to_external_name: null,
    amount: fromCents(cents),
    currency: p.currency,
    reference,
    status: pending ? "pending" : "completed",
    requires_approval: pending,
    approval_threshold: lockedFrom.approval_threshold,
    approved_by: null,
    initiated_by: p.initiated_by,
    initiated_by_user: requireCaller(ctx).userId,
    transaction_id: null,
    fee_amount: null,
    provider_ref: null,
    completed_at: pending ? null : now,
    created_at: now,
    updated_at: now,
  });
  if (pending) {
    if (!(await reserve(ctx.em, from.sid, cents, now))) throw await insufficient(ctx, from.sid, cents);
  } else {
    transfer.transaction_id = await moveInternal(ctx, transfer, lockedFrom, lockedTo, false);
  }
  return toTransferResult(transfer);
}

/** The transfer the dispatcher loaded (x-target FundTransfer, through its source account) and that account. */
async function loadTransfer(ctx: Targeted<RpcContext, FundTransferRow>) {
  const transfer = ctx.target.row;
  const from = await findAccount(ctx.em, transfer.from_account_id);
  if (!from) throw opsError.notFound("transfer");
  return { transfer, from };
}

export async function approveTransfer(
  ctx: Targeted<RpcContext, FundTransferRow>,
  { approved_by }: TreasuryOperationsServiceApproveTransferParams,
): Promise<FundTransferResult> {
  // The dispatcher checked the approver: approved_by a current director (or the owner's own resident) of the company,
  // or for a resident's account the caller its owner (x-target proxy "see", x-acts-as role director).
  const { transfer, from } = await loadTransfer(ctx);
  const bad = transferMoveRefusal(transfer.status, "approve");
  if (bad) throw opsRefused(bad);
  const self = selfApprovalRefusal(transfer, approved_by, requireCaller(ctx).userId);
  if (self) throw opsRefused(self);
  const target = transfer.to_account_id ? await findAccount(ctx.em, transfer.to_account_id) : null;
  if (target) await requireOperableOwner(ctx, target);
  const now = ctx.now();
  await lockAccounts(ctx.em, transfer.to_account_id ? [from.sid, transfer.to_account_id] : [from.sid]);
  // Every move of a transfer locks its source account first: read again under the lock, before a payout leaves.
  const stillPending = transferMoveRefusal(
    (await transfers.findTransfer(ctx.em, transfer.sid))?.status ?? "failed",
    "approve",
  );
  if (stillPending) throw opsRefused(stillPending);
  if (transfer.to_account_id === null) return approveExternal(ctx, transfer, from, approved_by);
  const [lockedFrom, to] = [await findAccount(ctx.em, from.sid), await findAccount(ctx.em, transfer.to_account_id)];
  if (!lockedFrom || !to) throw opsError.notFound("account");
  const transactionId = await moveInternal(ctx, transfer, lockedFrom, to, true);
  const fields = { approved_by, transaction_id: transactionId, completed_at: now };
  // The conditional move decides a race with another approval or a cancellation: the loser rolls back whole.
  if (!(await transfers.moveTransfer(ctx.em, transfer.sid, "pending", "completed", fields, now))) {
    throw opsError("InvalidState", "the transfer is no longer pending");
  }
  return toTransferResult({ ...transfer, ...fields, status: "completed", updated_at: now });
}

export async function cancelTransfer(
  ctx: Targeted<RpcContext, FundTransferRow>,
  _params: TreasuryOperationsServiceCancelTransferParams,
): Promise<FundTransferResult> {
  // The dispatcher let through the initiator or one who may approve it (x-target role director, party
  // initiated_by_user; a resident's proxy holder sees the transfer, its owner or the initiator cancels it).
  const { transfer, from } = await loadTransfer(ctx);
  const bad = transferMoveRefusal(transfer.status, "cancel");
  if (bad) throw opsRefused(bad);
  const now = ctx.now();
  await lockAccounts(ctx.em, [from.sid]);
  if (!(await transfers.moveTransfer(ctx.em, transfer.sid, "pending", "cancelled", {}, now))) {
    throw opsError("InvalidState", "the transfer is no longer pending");
  }
  await release(ctx.em, from.sid, reservedOf(transfer), now);
  return toTransferResult({ ...transfer, status: "cancelled", updated_at: now });
}

export async function listTransfers(
  ctx: Targeted<RpcContext, TreasuryAccountRow>,
  { status }: TreasuryOperationsServiceListTransfersParams,
) {
  const account = ctx.target.row;
  return { items: (await transfers.listTransfers(ctx.em, account.sid, status)).map(toTransferResult) };
}
