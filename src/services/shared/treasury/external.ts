import type { FundTransferRow, TreasuryAccountRow } from "../../../../generated/entities.ts";
import type { Targeted } from "../../../../generated/policy.ts";
import type {
  FundTransferResult,
  TreasuryOperationsServiceInitiateExternalTransferParams,
} from "../../../../generated/types.ts";
import type { Config } from "../../../config.ts";
import { uuidv7 } from "../../../domain/ids.ts";
import { type Cents, fromCents } from "../../../domain/money.ts";
import { isIban, isWalletAddress, needsApproval, percentFee } from "../../../domain/treasury.ts";
import { PayoutRefused, payoutProvider } from "../../../integrations/payouts/index.ts";
import { findAccount } from "../../../repos/treasury-accounts.ts";
import { credit, debitAvailable, debitReserved, lockAccounts, reserve } from "../../../repos/treasury-ledger.ts";
import * as transfers from "../../../repos/treasury-transfers.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { moveOut } from "../money-out.ts";
import { toTransferResult } from "./mappers.ts";
import {
  amountCents,
  insufficient,
  opsError,
  referenceOf,
  requireActive,
  requireCurrency,
  reservedOf,
  writeLedger,
} from "./operations.ts";

/*
 * External transfers (issue 15, docs/decisions.md "Treasury"): amount plus the configured fee leave the account
 * when the payout is handed to the provider (a `debit` row, `pending` while it settles); the settlement sweep asks
 * the provider and moves the transfer to `completed` (row `confirmed`) or `failed` (row `failed`, and a `credit`
 * row returning amount and fee). Above the threshold the total is reserved and waits for approve_transfer.
 */

/** The most characters a beneficiary name carries. */
export const MAX_BENEFICIARY_NAME = 200;

function destination(account: TreasuryAccountRow, toAddress: string, toName: string) {
  const address = account.kind === "bank_account" ? toAddress.replace(/\s+/g, "").toUpperCase() : toAddress.trim();
  const payable = account.kind === "bank_account" ? isIban(address) : isWalletAddress(account.network, address);
  if (!payable) {
    const rails = account.kind === "bank_account" ? "an IBAN" : `a ${account.network} address`;
    throw opsError("InvalidInput", `to_address is not ${rails}`, { field: "to_address" });
  }
  const name = toName.trim();
  if (name.length === 0 || name.length > MAX_BENEFICIARY_NAME) {
    throw opsError("InvalidInput", `to_name must be 1 to ${MAX_BENEFICIARY_NAME} characters`, { field: "to_name" });
  }
  return { address, name };
}

/** Hands the payout to the provider: its reference, or the refusal mapped (`rejected` is returned, not thrown). */
async function submitPayout(
  config: Config,
  transfer: FundTransferRow,
  now: Date,
): Promise<{ providerRef: string } | "rejected"> {
  try {
    return await payoutProvider(config).submit(
      {
        transferId: transfer.sid,
        amount: transfer.amount,
        currency: transfer.currency,
        toAddress: transfer.to_external_address ?? "",
        toName: transfer.to_external_name ?? "",
        reference: transfer.reference,
      },
      now,
    );
  } catch (err) {
    if (!(err instanceof PayoutRefused)) throw err;
    if (err.reason === "rejected") return "rejected";
    throw opsError("ProviderUnavailable", "the payout provider is unavailable; try again later");
  }
}

function debitRow(ctx: RpcContext, account: TreasuryAccountRow, transfer: FundTransferRow, total: Cents, after: Cents) {
  return writeLedger(ctx, {
    account,
    txType: "debit",
    amount: total,
    balanceAfter: after,
    description: `External transfer to ${transfer.to_external_name} (fee ${transfer.fee_amount} included)`,
    reference: transfer.reference,
    counterparty: transfer.to_external_address,
    fundTransferId: transfer.sid,
    status: "pending",
  });
}

export async function initiateExternalTransfer(
  ctx: Targeted<RpcContext, TreasuryAccountRow>,
  p: TreasuryOperationsServiceInitiateExternalTransferParams,
): Promise<FundTransferResult> {
  const cents = amountCents(p.amount);
  const reference = referenceOf(p.reference);
  const from = ctx.target.row;
  requireCurrency(from, p.currency);
  const { address, name } = destination(from, p.to_address, p.to_name);
  await lockAccounts(ctx.em, [from.sid]);
  const locked = await findAccount(ctx.em, from.sid);
  if (!locked) throw opsError.notFound("account");
  requireActive(locked);
  const fee = percentFee(cents, ctx.config.treasury.externalFeePercent);
  const total = cents + fee;
  const now = ctx.now();
  const pending = needsApproval(cents, locked.approval_threshold);
  const transfer = transfers.insertTransfer(ctx.em, {
    sid: uuidv7(now),
    from_account_id: from.sid,
    to_account_id: null,
    to_external_address: address,
    to_external_name: name,
    amount: fromCents(cents),
    currency: p.currency,
    reference,
    status: pending ? "pending" : "processing",
    requires_approval: pending,
    approval_threshold: locked.approval_threshold,
    approved_by: null,
    initiated_by: p.initiated_by,
    initiated_by_user: requireCaller(ctx).userId,
    transaction_id: null,
    fee_amount: fromCents(fee),
    provider_ref: null,
    completed_at: null,
    created_at: now,
    updated_at: now,
  });
  if (pending) {
    if (!(await reserve(ctx.em, from.sid, total, now))) throw await insufficient(ctx, from.sid, total);
    return toTransferResult(transfer);
  }
  const after = await moveOut(ctx, { cents: total, currency: locked.currency }, () =>
    debitAvailable(ctx.em, from.sid, total, now),
  );
  if (after === null) throw await insufficient(ctx, from.sid, total);
  const submitted = await submitPayout(ctx.config, transfer, now);
  if (submitted === "rejected") throw opsError("ProviderRejected", "the payout provider refused this payout");
  transfer.provider_ref = submitted.providerRef;
  transfer.transaction_id = debitRow(ctx, locked, transfer, total, after);
  return toTransferResult(transfer);
}

/**
 * Approval of a pending external transfer (the caller locked the source account and checked the approver): the
 * reserved total is debited (counted against an agent key's limits before anything leaves), then the payout goes to
 * the provider; accepted, the transfer is `processing`; rejected, the total is put back (as a release of the
 * reservation would leave it) and the transfer is `failed` (answered, not thrown: the state change commits).
 */
export async function approveExternal(
  ctx: RpcContext,
  transfer: FundTransferRow,
  from: TreasuryAccountRow,
  approvedBy: string,
): Promise<FundTransferResult> {
  const now = ctx.now();
  const total = reservedOf(transfer);
  const after = await moveOut(ctx, { cents: total, currency: from.currency }, () =>
    debitReserved(ctx.em, from.sid, total, now),
  );
  if (after === null) throw await insufficient(ctx, from.sid, total);
  const submitted = await submitPayout(ctx.config, transfer, now);
  if (submitted === "rejected") {
    if (!(await transfers.moveTransfer(ctx.em, transfer.sid, "pending", "failed", { approved_by: approvedBy }, now))) {
      throw opsError("InvalidState", "the transfer is no longer pending");
    }
    await credit(ctx.em, from.sid, total, now);
    return toTransferResult({ ...transfer, status: "failed", approved_by: approvedBy, updated_at: now });
  }
  const locked = (await findAccount(ctx.em, from.sid)) ?? from;
  const fields = {
    approved_by: approvedBy,
    provider_ref: submitted.providerRef,
    transaction_id: debitRow(ctx, locked, transfer, total, after),
  };
  if (!(await transfers.moveTransfer(ctx.em, transfer.sid, "pending", "processing", fields, now))) {
    throw opsError("InvalidState", "the transfer is no longer pending");
  }
  return toTransferResult({ ...transfer, ...fields, status: "processing", updated_at: now });
}
