import { describe, expect, test } from "vitest";
import { roundCents } from "../../src/integrations/fx/index.ts";
import {
  approvalReason,
  globMatch,
  type KeyPolicy,
  policyFromRow,
  toolRefusal,
  transactionRefusal,
  usageWindows,
  windowKeys,
  windowRefusal,
} from "../../src/mcp/policy.ts";
import { REDACTED, redactSecrets, summarizeArguments } from "../../src/mcp/sanitize.ts";

const base: KeyPolicy = policyFromRow({
  sid: "k1",
  mcp_scope: "readwrite",
  max_transaction_amount: null,
  daily_spending_limit: null,
  monthly_spending_limit: null,
  max_calls_per_hour: null,
  max_calls_per_day: null,
  allowed_tool_patterns: null,
  blocked_tool_patterns: null,
  approval_threshold: null,
  approval_required_tools: null,
  mcp_discovery_mode: false,
});

describe("tier policy rules", () => {
  test("unset columns take the seed defaults: 100 / 500 / 2000 EUR, 60 an hour, 500 a day, approval off", () => {
    expect(base).toMatchObject({
      maxTransactionAmount: 100,
      dailySpendingLimit: 500,
      monthlySpendingLimit: 2000,
      maxCallsPerHour: 60,
      maxCallsPerDay: 500,
      approvalThreshold: 0,
      allowedPatterns: [],
    });
  });

  test("globs match the whole tool name with * and ?", () => {
    expect(globMatch("freezone_credit*", "freezone_creditservice_deduct")).toBe(true);
    expect(globMatch("*_deduct", "freezone_creditservice_deduct")).toBe(true);
    expect(globMatch("freezone_creditservice_deduc?", "freezone_creditservice_deduct")).toBe(true);
    expect(globMatch("creditservice", "freezone_creditservice_deduct")).toBe(false);
    expect(globMatch("freezone.x", "freezone_x")).toBe(false);
  });

  test("a read key may call only read-only tools", () => {
    const read = { ...base, scope: "read" as const };
    expect(toolRefusal(read, "freezone_a_list", true)).toBeNull();
    expect(toolRefusal(read, "freezone_a_create", false)?.variant).toBe("ScopeDenied");
  });

  test("blocked patterns are checked before allowed ones; an empty allowed list allows all", () => {
    const policy = { ...base, allowedPatterns: ["freezone_credit*"], blockedPatterns: ["*_deduct"] };
    expect(toolRefusal(policy, "freezone_creditservice_deduct", false)?.message).toContain("blocked");
    expect(toolRefusal(policy, "freezone_creditservice_get_balance", true)).toBeNull();
    expect(toolRefusal(policy, "freezone_invoiceservice_get", true)?.message).toContain("not in this key's allowed");
    expect(toolRefusal({ ...base, blockedPatterns: ["*_deduct"] }, "freezone_invoiceservice_get", true)).toBeNull();
  });

  test("the per-transaction limit refuses only amounts over it; 0 means unlimited", () => {
    expect(transactionRefusal(base, 100)).toBeNull();
    expect(transactionRefusal(base, 100.01)).toMatchObject({
      variant: "SpendingLimit",
      details: { limit: 100, window: "transaction" },
    });
    expect(transactionRefusal({ ...base, maxTransactionAmount: 0 }, 1e9)).toBeNull();
  });

  test("approval: a matching approval-required pattern, or an amount over a threshold that is on", () => {
    expect(approvalReason(base, "freezone_x", 1e6)).toBeNull();
    expect(approvalReason({ ...base, approvalThreshold: 50 }, "freezone_x", 50)).toBeNull();
    expect(approvalReason({ ...base, approvalThreshold: 50 }, "freezone_x", 50.01)).toContain("threshold");
    expect(
      approvalReason({ ...base, approvalRequiredPatterns: ["*_transfer"] }, "freezone_t_initiate_transfer", 0),
    ).toContain("*_transfer");
  });

  test("windows are UTC calendar hours, days and months", () => {
    expect(windowKeys(new Date("2026-11-30T23:59:59.999Z"))).toEqual({
      hour: "hour:2026-11-30T23",
      day: "day:2026-11-30",
      month: "month:2026-11",
    });
    expect(windowKeys(new Date("2026-12-01T00:00:00.000+01:00")).day).toBe("day:2026-11-30");
  });

  test("a call counts in the windows whose limits are on; amounts always count in day and month", () => {
    const now = new Date("2026-11-23T10:00:00Z");
    expect(usageWindows(base, 0, now).map((w) => w.label)).toEqual(["hour", "day"]);
    expect(usageWindows(base, 10, now).map((w) => w.label)).toEqual(["hour", "day", "month"]);
    const unlimited = { ...base, maxCallsPerHour: 0, maxCallsPerDay: 0 };
    expect(usageWindows(unlimited, 0, now)).toEqual([]);
    expect(usageWindows(unlimited, 10, now).map((w) => [w.label, w.calls, w.amountEur])).toEqual([
      ["day", 0, 10],
      ["month", 0, 10],
    ]);
  });

  test("a window names the limit a call would pass: calls first, then amount", () => {
    const [hour, day] = usageWindows(base, 20, new Date("2026-11-23T10:00:00Z"));
    expect(windowRefusal(hour!, { calls: 59, amountEur: 0 })).toBeNull();
    expect(windowRefusal(hour!, { calls: 60, amountEur: 0 })).toMatchObject({
      variant: "CallLimit",
      details: { limit: 60, window: "hour" },
    });
    expect(windowRefusal(day!, { calls: 0, amountEur: 480 })).toBeNull();
    expect(windowRefusal(day!, { calls: 0, amountEur: 480.01 })).toMatchObject({
      variant: "SpendingLimit",
      details: { window: "day" },
    });
  });

  test("money rounds half-even to cents", () => {
    expect(roundCents(0.125)).toBe(0.12);
    expect(roundCents(0.135)).toBe(0.14);
    expect(roundCents(92.0000001)).toBe(92);
  });
});

describe("argument summary", () => {
  test("drops passwords, keys, tokens, secrets and card data, keeps the rest", () => {
    const summary = JSON.parse(
      summarizeArguments({
        name: "ok",
        password: "hunter2",
        nested: { client_secret: "s", api_key: "k", refresh_token: "t", note: "fz_u_abcdef" },
        card_number: "4111 1111 1111 1111",
        reference: "4111111111111111",
        amount: 12.5,
        encrypted_private_key: "aa:bb",
      }),
    );
    expect(summary).toEqual({
      name: "ok",
      password: REDACTED,
      nested: { client_secret: REDACTED, api_key: REDACTED, refresh_token: REDACTED, note: REDACTED },
      card_number: REDACTED,
      reference: REDACTED,
      amount: 12.5,
      encrypted_private_key: REDACTED,
    });
  });

  test("long values and long summaries are cut", () => {
    expect(JSON.parse(summarizeArguments({ text: "x".repeat(500) })).text).toHaveLength(203);
    expect(summarizeArguments({ items: Array.from({ length: 20 }, () => "y".repeat(199)) }).length).toBeLessThanOrEqual(
      2003,
    );
  });
});

describe("redactSecrets (an API key's read of its owner's approval arguments)", () => {
  test("every secret field is redacted at any depth; everything else is kept whole", () => {
    const long = "x".repeat(500);
    expect(
      redactSecrets({
        note: long,
        payment_instructions: { security_answer: "blue", bank: "Harbour" },
        items: [{ token: "t" }, "fz_u_abcdef"],
      }),
    ).toEqual({
      note: long,
      payment_instructions: { security_answer: REDACTED, bank: "Harbour" },
      items: [{ token: REDACTED }, REDACTED],
    });
  });
});
