import type {
  ExchangeQuoteRow,
  ExchangeTransactionRow,
  FundTransferRow,
  TreasuryAccountRow,
  TreasuryTransactionRow,
} from "../../../../generated/entities.ts";
import type {
  ExchangeQuoteResult,
  ExchangeResult,
  FundTransferResult,
  TreasuryAccountResult,
  TreasuryTransactionResult,
} from "../../../../generated/types.ts";
import { subtractMoney } from "../../../domain/money.ts";

/** Treasury rows as their named results (timestamps as ISO strings; initiated_by_user and provider_ref stay in). */

export function toAccountResult(row: TreasuryAccountRow): TreasuryAccountResult {
  return {
    sid: row.sid,
    owner_type: row.owner_type,
    owner_id: row.owner_id,
    kind: row.kind,
    name: row.name,
    currency: row.currency,
    balance: row.balance,
    pending_out: row.pending_out,
    available_balance: subtractMoney(row.balance, row.pending_out),
    approval_threshold: row.approval_threshold,
    is_active: row.is_active,
    network: row.network,
    address: row.address,
    bank_name: row.bank_name,
    account_number: row.account_number,
    iban: row.iban,
    swift: row.swift,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toTransactionResult(row: TreasuryTransactionRow): TreasuryTransactionResult {
  return {
    sid: row.sid,
    account_id: row.account_id,
    tx_type: row.tx_type,
    amount: row.amount,
    currency: row.currency,
    owner_type: row.owner_type,
    owner_id: row.owner_id,
    balance_after: row.balance_after,
    status: row.status,
    description: row.description,
    reference: row.reference,
    counterparty: row.counterparty,
    fund_transfer_id: row.fund_transfer_id,
    exchange_id: row.exchange_id,
    transaction_hash: row.transaction_hash,
    created_at: row.created_at.toISOString(),
    confirmed_at: row.confirmed_at?.toISOString() ?? null,
  };
}

export function toTransferResult(row: FundTransferRow): FundTransferResult {
  return {
    sid: row.sid,
    from_account_id: row.from_account_id,
    to_account_id: row.to_account_id,
    to_external_address: row.to_external_address,
    to_external_name: row.to_external_name,
    amount: row.amount,
    currency: row.currency,
    fee_amount: row.fee_amount,
    reference: row.reference,
    status: row.status,
    requires_approval: row.requires_approval,
    approval_threshold: row.approval_threshold,
    approved_by: row.approved_by,
    initiated_by: row.initiated_by,
    transaction_id: row.transaction_id,
    completed_at: row.completed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toQuoteResult(row: ExchangeQuoteRow): ExchangeQuoteResult {
  return {
    quote_id: row.sid,
    from_currency: row.from_currency,
    to_currency: row.to_currency,
    from_amount: row.from_amount,
    exchange_rate: row.exchange_rate,
    fee_percentage: row.fee_percentage,
    fee_amount: row.fee_amount,
    to_amount: row.to_amount,
    rate_expires_at: row.expires_at.toISOString(),
  };
}

export function toExchangeResult(row: ExchangeTransactionRow): ExchangeResult {
  return {
    sid: row.sid,
    owner_type: row.owner_type,
    owner_id: row.owner_id,
    from_account_id: row.from_account_id,
    to_account_id: row.to_account_id,
    from_amount: row.from_amount,
    from_currency: row.from_currency,
    to_amount: row.to_amount,
    to_currency: row.to_currency,
    exchange_rate: row.exchange_rate,
    fee_percentage: row.fee_percentage,
    fee_amount: row.fee_amount,
    status: row.status,
    rate_expires_at: row.rate_expires_at.toISOString(),
    initiated_by: row.initiated_by,
    completed_at: row.completed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}
