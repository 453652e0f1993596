import type { ApiKeyRow } from "../../generated/entities.ts";

type LimitField =
  | "max_transaction_amount"
  | "daily_spending_limit"
  | "monthly_spending_limit"
  | "max_calls_per_hour"
  | "max_calls_per_day"
  | "allowed_tool_patterns"
  | "blocked_tool_patterns"
  | "approval_threshold"
  | "approval_required_tools"
  | "mcp_discovery_mode";

/** Tier policy of an API key (seed 000 ApiKey): governs MCP use. The stored columns, with the defaults filled in. */
export type KeyPolicy = Pick<ApiKeyRow, "mcp_scope"> & { [F in LimitField]: NonNullable<ApiKeyRow[F]> };

/** The seed's defaults; no scope means no MCP access. */
export const KEY_POLICY_DEFAULTS: KeyPolicy = {
  mcp_scope: null,
  max_transaction_amount: 100,
  daily_spending_limit: 500,
  monthly_spending_limit: 2000,
  max_calls_per_hour: 60,
  max_calls_per_day: 500,
  allowed_tool_patterns: "",
  blocked_tool_patterns: "",
  approval_threshold: 0,
  approval_required_tools: "",
  mcp_discovery_mode: false,
};

export const POLICY_FIELDS = Object.keys(KEY_POLICY_DEFAULTS) as (keyof KeyPolicy)[];

/** The ApiKey columns a key's policy is read from (with its sid). */
export const POLICY_COLUMNS = [
  "sid",
  "mcp_scope",
  "max_transaction_amount",
  "daily_spending_limit",
  "monthly_spending_limit",
  "max_calls_per_hour",
  "max_calls_per_day",
  "allowed_tool_patterns",
  "blocked_tool_patterns",
  "approval_threshold",
  "approval_required_tools",
  "mcp_discovery_mode",
] as const;

export type KeyPolicyColumns = Pick<ApiKeyRow, (typeof POLICY_COLUMNS)[number]>;
export const PATTERN_FIELDS = ["allowed_tool_patterns", "blocked_tool_patterns", "approval_required_tools"] as const;

export const PERSONAL_KEY_TTL_DAYS = 365;
/** The assistant's key is re-minted on demand, so it need not live long. */
export const ASSISTANT_KEY_TTL_HOURS = 24;

const PATTERN = /^[A-Za-z0-9_.*?-]{1,128}$/;

/**
 * A comma-separated list of tool-name globs (`*` any run, `?` one character). Spaces around entries and empty
 * entries are dropped; the stored form is the cleaned list. Answers the cleaned list, or an error naming the
 * first bad entry.
 */
export function cleanPatternList(text: string): { value: string } | { error: string } {
  const entries = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const bad = entries.find((p) => !PATTERN.test(p));
  if (bad !== undefined) return { error: `"${bad.slice(0, 40)}" is not a tool-name glob (letters, digits, _ . - * ?)` };
  return { value: entries.join(",") };
}

/** Reads a stored policy, filling columns left null (rows written before a field existed) with the defaults. */
export function policyOf(row: Pick<ApiKeyRow, keyof KeyPolicy>): KeyPolicy {
  const d = KEY_POLICY_DEFAULTS;
  return {
    mcp_scope: row.mcp_scope ?? null,
    max_transaction_amount: row.max_transaction_amount ?? d.max_transaction_amount,
    daily_spending_limit: row.daily_spending_limit ?? d.daily_spending_limit,
    monthly_spending_limit: row.monthly_spending_limit ?? d.monthly_spending_limit,
    max_calls_per_hour: row.max_calls_per_hour ?? d.max_calls_per_hour,
    max_calls_per_day: row.max_calls_per_day ?? d.max_calls_per_day,
    allowed_tool_patterns: row.allowed_tool_patterns ?? d.allowed_tool_patterns,
    blocked_tool_patterns: row.blocked_tool_patterns ?? d.blocked_tool_patterns,
    approval_threshold: row.approval_threshold ?? d.approval_threshold,
    approval_required_tools: row.approval_required_tools ?? d.approval_required_tools,
    mcp_discovery_mode: row.mcp_discovery_mode ?? d.mcp_discovery_mode,
  };
}

export function addDays(now: Date, days: number): Date {
  return new Date(now.getTime() + days * 24 * 3600 * 1000);
}

/** A key works while it is active and not past its expiry. */
export function keyIsUsable(isActive: boolean, expiresAt: Date | null, now: Date): boolean {
  return isActive && (expiresAt === null || expiresAt.getTime() > now.getTime());
}
