import { type KeyPolicyColumns, policyOf } from "../domain/key-policy.ts";

/**
 * Tier policies of an API key on MCP (seed 001 Authentication 7, Limits): pure rules, no database.
 * Calendar hours, days and months are UTC.
 */

export interface KeyPolicy {
  keyId: string;
  scope: "read" | "readwrite";
  maxTransactionAmount: number;
  dailySpendingLimit: number;
  monthlySpendingLimit: number;
  maxCallsPerHour: number;
  maxCallsPerDay: number;
  allowedPatterns: string[];
  blockedPatterns: string[];
  approvalThreshold: number;
  approvalRequiredPatterns: string[];
  /** `tools/list` answers the meta-tools (search, describe, call) instead of the catalogue (discovery.ts). */
  discoveryMode: boolean;
}

export function parsePatterns(list: string | null): string[] {
  return (list ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The key's policy as MCP enforces it, from an ApiKey row (null columns take the seed defaults, 0 = off). */
export function policyFromRow(row: KeyPolicyColumns): KeyPolicy {
  const p = policyOf(row);
  return {
    keyId: row.sid,
    scope: p.mcp_scope === "readwrite" ? "readwrite" : "read",
    maxTransactionAmount: p.max_transaction_amount,
    dailySpendingLimit: p.daily_spending_limit,
    monthlySpendingLimit: p.monthly_spending_limit,
    maxCallsPerHour: p.max_calls_per_hour,
    maxCallsPerDay: p.max_calls_per_day,
    allowedPatterns: parsePatterns(p.allowed_tool_patterns),
    blockedPatterns: parsePatterns(p.blocked_tool_patterns),
    approvalThreshold: p.approval_threshold,
    approvalRequiredPatterns: parsePatterns(p.approval_required_tools),
    discoveryMode: p.mcp_discovery_mode,
  };
}

const globs = new Map<string, RegExp>();
const CACHED_GLOBS = 1024;

/** A glob's regular expression, compiled once (every call of a key with patterns checks them). */
function globRegExp(pattern: string): RegExp {
  let re = globs.get(pattern);
  if (!re) {
    const source = pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".");
    re = new RegExp(`^${source}$`);
    if (globs.size >= CACHED_GLOBS) globs.clear();
    globs.set(pattern, re);
  }
  return re;
}

/** Shell-style glob over the whole tool name: `*` any run of characters, `?` one character. */
export function globMatch(pattern: string, name: string): boolean {
  return globRegExp(pattern).test(name);
}

const matchesAny = (patterns: string[], name: string): boolean => patterns.some((p) => globMatch(p, name));

export interface Refusal {
  variant: "ScopeDenied" | "SpendingLimit" | "CallLimit";
  message: string;
  details: Record<string, unknown>;
}

/** Scope first (a read key may call only read-only tools), then blocked globs, then allowed globs (empty = all). */
export function toolRefusal(policy: KeyPolicy, tool: string, readOnly: boolean): Refusal | null {
  if (policy.scope === "read" && !readOnly) {
    return { variant: "ScopeDenied", message: `${tool} is not read-only and this key has read scope`, details: {} };
  }
  if (matchesAny(policy.blockedPatterns, tool)) {
    return { variant: "ScopeDenied", message: `${tool} is blocked by this key's tool patterns`, details: {} };
  }
  if (policy.allowedPatterns.length > 0 && !matchesAny(policy.allowedPatterns, tool)) {
    return { variant: "ScopeDenied", message: `${tool} is not in this key's allowed tool patterns`, details: {} };
  }
  return null;
}

export function transactionRefusal(policy: KeyPolicy, amountEur: number): Refusal | null {
  const limit = policy.maxTransactionAmount;
  if (limit > 0 && amountEur > limit) {
    return spendingRefusal("transaction", limit, `amount ${amountEur} EUR is over the per-transaction limit`);
  }
  return null;
}

export function spendingRefusal(window: string, limit: number, message: string): Refusal {
  return { variant: "SpendingLimit", message, details: { limit, window } };
}

/** Why a call needs the owner's approval, or null: an approval-required pattern, or an amount over the threshold. */
export function approvalReason(policy: KeyPolicy, tool: string, amountEur: number): string | null {
  return patternReason(policy, tool) ?? thresholdReason(policy, amountEur);
}

/** The approval-required pattern the tool matches, as the approval's reason; null: none. */
export function patternReason(policy: KeyPolicy, tool: string): string | null {
  const pattern = policy.approvalRequiredPatterns.find((p) => globMatch(p, tool));
  return pattern ? `tool matches the approval-required pattern "${pattern}"` : null;
}

/** The amount over the approval threshold, as the approval's reason; null: under it, or no threshold. */
export function thresholdReason(policy: KeyPolicy, amountEur: number): string | null {
  if (policy.approvalThreshold > 0 && amountEur > policy.approvalThreshold + AMOUNT_EPSILON) {
    return `amount ${amountEur} EUR is over the approval threshold of ${policy.approvalThreshold} EUR`;
  }
  return null;
}

/**
 * The limit a call's whole amount passes by itself, whatever the key spent before: the per-transaction limit, or
 * a daily or monthly limit below the amount. Such a call can never succeed, so it is not parked for approval.
 */
export function aloneRefusal(policy: KeyPolicy, amountEur: number, now: Date): Refusal | null {
  const over = transactionRefusal(policy, amountEur);
  if (over) return over;
  for (const w of usageWindows(policy, amountEur, now, false)) {
    const refusal = windowRefusal(w, { calls: 0, amountEur: 0 });
    if (refusal) return refusal;
  }
  return null;
}

/** One usage counter a call touches: its key in McpUsageCounter.window and the limits that apply to it. */
export interface UsageWindow {
  window: string;
  label: "hour" | "day" | "month";
  callLimit: number;
  amountLimit: number;
  calls: number;
  amountEur: number;
}

/** UTC window keys: `hour:2026-11-23T10`, `day:2026-11-23`, `month:2026-11`. */
export function windowKeys(now: Date): { hour: string; day: string; month: string } {
  const iso = now.toISOString();
  return { hour: `hour:${iso.slice(0, 13)}`, day: `day:${iso.slice(0, 10)}`, month: `month:${iso.slice(0, 7)}` };
}

/**
 * The counters one call increments, in a fixed order (so concurrent transactions lock rows in the same order).
 * Calls are counted where a call limit is on; amounts are always counted, so a spending limit switched on later
 * sees the day's and month's earlier spending.
 */
export function usageWindows(policy: KeyPolicy, amountEur: number, now: Date, countCall = true): UsageWindow[] {
  const keys = windowKeys(now);
  const calls = countCall ? 1 : 0;
  const windows: UsageWindow[] = [];
  if (calls > 0 && policy.maxCallsPerHour > 0) {
    windows.push({
      window: keys.hour,
      label: "hour",
      callLimit: policy.maxCallsPerHour,
      amountLimit: 0,
      calls,
      amountEur: 0,
    });
  }
  const dayCalls = calls > 0 && policy.maxCallsPerDay > 0;
  if (dayCalls || amountEur > 0) {
    windows.push({
      window: keys.day,
      label: "day",
      callLimit: dayCalls ? policy.maxCallsPerDay : 0,
      amountLimit: policy.dailySpendingLimit,
      calls: dayCalls ? calls : 0,
      amountEur,
    });
  }
  if (amountEur > 0) {
    windows.push({
      window: keys.month,
      label: "month",
      callLimit: 0,
      amountLimit: policy.monthlySpendingLimit,
      calls: 0,
      amountEur,
    });
  }
  return windows;
}

/** Which limit of a window a call would pass, given the counter's current values (null: none). */
export function windowRefusal(window: UsageWindow, current: { calls: number; amountEur: number }): Refusal | null {
  if (window.callLimit > 0 && current.calls + window.calls > window.callLimit) {
    return {
      variant: "CallLimit",
      message: `call limit of ${window.callLimit} per ${window.label} reached`,
      details: { limit: window.callLimit, window: window.label },
    };
  }
  if (window.amountLimit > 0 && current.amountEur + window.amountEur > window.amountLimit + AMOUNT_EPSILON) {
    return spendingRefusal(
      window.label,
      window.amountLimit,
      `spending limit of ${window.amountLimit} EUR per ${window.label} reached`,
    );
  }
  return null;
}

/** Amounts are doubles rounded to cents: sums compare with a tolerance far below a cent. */
export const AMOUNT_EPSILON = 1e-6;
