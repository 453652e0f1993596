import type { FundTransferStatus, TreasuryAccountKind } from "../../generated/types.ts";
import { type Cents, fromCents, isValidAmount, MAX_MONEY, multiplyMoney, roundMoney, toCents } from "./money.ts";
import { nameKey } from "./name-key.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Treasury rules (issue 15, docs/decisions.md "Treasury"): account fields, amounts, approval, fees, exchange
 * quotes and the transfer state table. Values in, values or a Refusal out.
 */

/** Currencies a treasury account may hold: those the sandbox FX provider prices (fiat and two stablecoins). */
export const TREASURY_CURRENCIES: readonly string[] = ["AED", "CHF", "EUR", "GBP", "KES", "TZS", "USD", "USDC", "USDT"];

/** Rates carry 10 decimals (ExchangeTransaction.exchange_rate is numeric(20,10)). */
export const RATE_DECIMALS = 10;

/** The most rows one transaction or transfer list answers (newest first). */
export const TREASURY_LIST_LIMIT = 1000;

export interface AccountInput {
  kind: TreasuryAccountKind;
  name: string;
  currency: string;
  approval_threshold?: number | null | undefined;
  network?: string | null | undefined;
  address?: string | null | undefined;
  bank_name?: string | null | undefined;
  account_number?: string | null | undefined;
  iban?: string | null | undefined;
  swift?: string | null | undefined;
}

export interface AccountFields {
  kind: TreasuryAccountKind;
  name: string;
  currency: string;
  approval_threshold: number;
  network: string | null;
  address: string | null;
  bank_name: string | null;
  account_number: string | null;
  iban: string | null;
  swift: string | null;
}

type Bad = Refusal<"InvalidInput">;

/** A text field as stored: trimmed, blank is null. */
function optionalText(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed.length > 0 ? trimmed : null;
}

export function treasuryCurrency(currency: string): string | Refusal<"InvalidInput"> {
  if (TREASURY_CURRENCIES.includes(currency)) return currency;
  return refuse("InvalidInput", `unknown currency "${currency.slice(0, 10)}"`, {
    field: "currency",
    known: TREASURY_CURRENCIES,
  });
}

/** A threshold: 0 (never) or a positive amount with at most two decimals. */
export function thresholdOf(value: number | null | undefined): number | Bad {
  if (value === null || value === undefined || value === 0) return 0;
  if (isValidAmount(value)) return value;
  return refuse("InvalidInput", "approval_threshold must be 0 or an amount with at most 2 decimals", {
    field: "approval_threshold",
  });
}

/** An account name: trimmed, not blank (invisibles and spaces only are blank: an empty nameKey). */
export function accountName(raw: string): string | Bad {
  const name = raw.trim();
  return nameKey(name) !== "" ? name : refuse("InvalidInput", "name must not be blank", { field: "name" });
}

/** IBAN: country, check digits, 11 to 30 alphanumerics, and the ISO 13616 mod-97 check. */
export function isIban(raw: string): boolean {
  const iban = raw.replace(/\s+/g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

const EVM_NETWORKS = ["ethereum", "polygon", "arbitrum", "optimism", "base", "bsc"];

/** Whether a crypto wallet on `network` can pay `address`: 0x + 40 hex on EVM chains, Tron base58, else 20-100 alnum. */
export function isWalletAddress(network: string | null, address: string): boolean {
  const chain = (network ?? "").toLowerCase();
  if (EVM_NETWORKS.includes(chain)) return /^0x[0-9a-fA-F]{40}$/.test(address);
  if (chain === "tron") return /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address);
  return /^[A-Za-z0-9]{20,100}$/.test(address);
}

/** A new account's fields: known currency, kind-specific fields present and well formed. */
export function accountFields(input: AccountInput): AccountFields | Bad {
  const name = accountName(input.name);
  if (typeof name !== "string") return name;
  const currency = treasuryCurrency(input.currency);
  if (typeof currency !== "string") return currency;
  const threshold = thresholdOf(input.approval_threshold);
  if (typeof threshold !== "number") return threshold;
  const fields: AccountFields = {
    kind: input.kind,
    name,
    currency,
    approval_threshold: threshold,
    network: optionalText(input.network),
    address: optionalText(input.address),
    bank_name: optionalText(input.bank_name),
    account_number: optionalText(input.account_number),
    iban: optionalText(input.iban)?.replace(/\s+/g, "").toUpperCase() ?? null,
    swift: optionalText(input.swift)?.toUpperCase() ?? null,
  };
  if (fields.kind === "crypto_wallet") {
    if (!fields.network || !fields.address) {
      return refuse("InvalidInput", "a crypto wallet needs network and address", { fields: ["network", "address"] });
    }
    if (!isWalletAddress(fields.network, fields.address)) {
      return refuse("InvalidInput", `address is not a ${fields.network} address`, { field: "address" });
    }
    if (fields.bank_name || fields.account_number || fields.iban || fields.swift) {
      return refuse("InvalidInput", "a crypto wallet has no bank fields", { field: "bank_name" });
    }
    return fields;
  }
  if (!fields.bank_name || (!fields.iban && !fields.account_number)) {
    return refuse("InvalidInput", "a bank account needs bank_name and an iban or account_number", {
      fields: ["bank_name", "iban", "account_number"],
    });
  }
  if (fields.iban && !isIban(fields.iban)) return refuse("InvalidInput", "iban is not valid", { field: "iban" });
  if (fields.swift && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(fields.swift)) {
    return refuse("InvalidInput", "swift is not a BIC", { field: "swift" });
  }
  if (fields.network || fields.address) {
    return refuse("InvalidInput", "a bank account has no network or address", { field: "network" });
  }
  return fields;
}

export interface AccountChanges {
  name?: string;
  approval_threshold?: number;
  is_active?: boolean;
}

export function accountChanges(input: {
  name?: string | undefined;
  approval_threshold?: number | undefined;
  is_active?: boolean | undefined;
}): AccountChanges | Bad {
  const changes: AccountChanges = {};
  if (input.name !== undefined) {
    const name = accountName(input.name);
    if (typeof name !== "string") return name;
    changes.name = name;
  }
  if (input.approval_threshold !== undefined) {
    const threshold = thresholdOf(input.approval_threshold);
    if (typeof threshold !== "number") return threshold;
    changes.approval_threshold = threshold;
  }
  if (input.is_active !== undefined) changes.is_active = input.is_active;
  return changes;
}

/** Deactivating needs a zero balance, nothing reserved and no transfer still open on the account. */
export function deactivationRefusal(
  balance: number,
  pendingOut: number,
  openTransfers: number,
): Refusal<"InvalidState"> | null {
  if (balance === 0 && pendingOut === 0 && openTransfers === 0) return null;
  return refuse("InvalidState", "an account with a balance or open transfers cannot be deactivated", {
    balance,
    pending_out: pendingOut,
    open_transfers: openTransfers,
  });
}

/** A money amount a movement takes: positive, at most two decimals, exact. */
export function movementAmount(amount: number, field = "amount"): Cents | Refusal<"InvalidAmount"> {
  if (!isValidAmount(amount)) {
    return refuse("InvalidAmount", `${field} must be more than 0 with at most 2 decimals`, { field, amount });
  }
  return toCents(amount);
}

/** Transfers above a positive threshold wait for approval; 0 means never. */
export function needsApproval(amount: Cents, threshold: number): boolean {
  const limit = toCents(threshold);
  return limit > 0 && amount > limit;
}

/** A percentage fee on `amount` cents, half-even to the cent, at least one cent when the percentage is positive. */
export function percentFee(amount: Cents, percent: number): Cents {
  if (percent === 0) return 0;
  return Math.max(1, toCents(multiplyMoney(fromCents(amount), percent / 100)));
}

/** Units of `to` per unit of `from`, from their EUR values, rounded to RATE_DECIMALS. */
export function crossRate(fromEur: number, toEur: number): number {
  return Number((fromEur / toEur).toFixed(RATE_DECIMALS));
}

export interface QuoteFigures {
  fee: Cents;
  toAmount: Cents;
}

/** (from_amount - fee) x rate, half-even to the cent; a quote that buys nothing is InvalidAmount. */
export function quoteFigures(
  fromAmount: Cents,
  rate: number,
  feePercent: number,
): QuoteFigures | Refusal<"InvalidAmount"> {
  const fee = percentFee(fromAmount, feePercent);
  const net = fromAmount - fee;
  const toAmount = net > 0 ? toCents(multiplyMoney(fromCents(net), rate)) : 0;
  if (toAmount <= 0 || toAmount > toCents(MAX_MONEY)) {
    return refuse("InvalidAmount", "the amount is too small (or too large) to exchange", {
      amount: fromCents(fromAmount),
    });
  }
  return { fee, toAmount };
}

export interface StoredQuote {
  user_id: string;
  from_currency: string;
  to_currency: string;
  from_amount: number;
  exchange_rate: number;
  expires_at: Date;
  exchange_id: string | null;
}

export interface ExchangeAsk {
  userId: string;
  fromCurrency: string;
  toCurrency: string;
  fromAmount: number;
  rate: number;
}

/** Whether a stored quote covers the exchange asked for, at `now`: mismatch, used or expired is refused. */
export function quoteRefusal(
  quote: StoredQuote,
  ask: ExchangeAsk,
  now: Date,
): Refusal<"QuoteMismatch" | "Expired" | "AlreadyUsed"> | null {
  if (
    quote.user_id !== ask.userId ||
    quote.from_currency !== ask.fromCurrency ||
    quote.to_currency !== ask.toCurrency ||
    roundMoney(quote.from_amount) !== roundMoney(ask.fromAmount) ||
    quote.exchange_rate !== ask.rate
  ) {
    return refuse("QuoteMismatch", "the exchange does not match a quote the server issued to you", {
      expected: "from_currency, to_currency, from_amount and exchange_rate of your quote",
    });
  }
  if (quote.exchange_id !== null) return refuse("AlreadyUsed", "the quote was already used", {});
  if (quote.expires_at.getTime() <= now.getTime()) {
    return refuse("Expired", "the quote has expired: ask for a new one", {
      rate_expires_at: quote.expires_at.toISOString(),
    });
  }
  return null;
}

/** The moves of a fund transfer: the state each starts from. */
export const TRANSFER_MOVES = {
  approve: { from: "pending" },
  cancel: { from: "pending" },
  settle: { from: "processing" },
} as const satisfies Record<string, { from: FundTransferStatus }>;

export function transferMoveRefusal(
  status: FundTransferStatus,
  move: keyof typeof TRANSFER_MOVES,
): Refusal<"InvalidState"> | null {
  const { from } = TRANSFER_MOVES[move];
  if (status === from) return null;
  return refuse("InvalidState", `only a ${from} transfer can be ${move}d; this one is ${status}`, {
    status,
    required: from,
  });
}

/** Four eyes: the initiating user never approves, nor the initiating resident. */
export function selfApprovalRefusal(
  transfer: { initiated_by: string; initiated_by_user: string | null },
  approverResident: string,
  approverUser: string,
): Refusal<"SelfApproval"> | null {
  if (transfer.initiated_by !== approverResident && transfer.initiated_by_user !== approverUser) return null;
  return refuse("SelfApproval", "the initiator of a transfer cannot approve it", {});
}
