import { randomBytes } from "node:crypto";
import type { ExecutorRole } from "../generated/types.ts";
import { type DatabaseTimeouts, DEFAULT_TIMEOUTS } from "./db/timeouts.ts";
import { type DisciplineConfig, type DisciplineStep, EXECUTOR_ROLES } from "./domain/discipline.ts";
import { KYC_PERSONAL_FIELDS, type KycPersonalField } from "./domain/kyc.ts";
import { TAX_PERIODS, type TaxPeriod } from "./domain/tax.ts";

export type Clock = () => Date;

export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface RateLimitConfig {
  /** Auth attempts per client address per minute (login, register, recovery, reset, key generate). */
  perAddressPerMinute: number;
  /** Failures per account (or partner client_id) within the window before -32007. */
  perAccountFailures: number;
  perAccountWindowS: number;
  /** Verification and reset emails per recipient address per hour (stops mail bombing). */
  emailsPerAddressPerHour: number;
  /** 2FA recovery sessions an account may open per day. */
  recoveriesPerAccountPerDay: number;
  /** Front-end error reports per client address per minute. */
  frontendErrorsPerMinute: number;
}

/** Every setting in one validated object; nothing else reads process.env. */
export interface Config {
  port: number;
  host: string;
  /** METRICS_PORT: a port serving only `GET /metrics`, without credentials; null (unset) serves none. */
  metricsPort: number | null;
  /** METRICS_HOST: where the metrics port binds (default 127.0.0.1: reachable from this host only). */
  metricsHost: string;
  databaseUrl: string | null;
  /** PGlite data directory; null keeps the database in memory. */
  pgliteDir: string | null;
  /** PostgreSQL schema to use (tests give each worker its own). */
  databaseSchema: string | null;
  idPrefix: string;
  /** 32-byte key for AES-256-GCM encryption at rest (src/auth/secret-box.ts). */
  encryptionKey: Buffer;
  /**
   * Where the key comes from: ENCRYPTION_KEY, the PGlite data directory's key file (src/db/key-file.ts, loaded at
   * start), or a random key for this process only (tests and in-memory databases).
   */
  encryptionKeySource: "env" | "file" | "ephemeral";
  /** Settings acceptable outside production that a start-up warning names (a default webhook secret...). */
  warnings: string[];
  /** Base URL of this server as clients reach it: links in emails, the OpenRPC `servers` URLs. */
  publicBaseUrl: string;
  /** Discount profile names of the deployment branding configuration (partners reference them). */
  discountProfiles: string[];
  webhookSecret: string;
  argon2: Argon2Cost;
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  rateLimits: RateLimitConfig;
  bodyLimitBytes: number;
  /** Check every result against its schema (on in tests; a mismatch is a server bug). */
  validateResults: boolean;
  /** Database timeouts and deadlines (src/db/timeouts.ts; DB_*_MS settings). */
  database: DatabaseTimeouts;
  /** SHUTDOWN_GRACE_MS (10000): how long SIGTERM waits for calls in flight before the pool closes. */
  shutdownGraceMs: number;
  /** The most one batch answers on /rpc (bytes); later calls are refused without running. */
  maxBatchAnswerBytes: number;
  logLevel: string;
  /**
   * LOG_FORMAT: `json` (one JSON object a line, for log collectors), `pretty` (pino-pretty, for a person reading a
   * terminal) or `auto` (pretty when stdout is a terminal). Default: json with NODE_ENV=production, pretty with
   * NODE_ENV=development, auto otherwise.
   */
  logFormat: LogFormat;
  adminEmail: string | null;
  adminPassword: string | null;
  allowedOrigins: string[];
  /** Take the client address from X-Forwarded-For (only behind a load balancer that sets it). */
  trustProxy: boolean;
  /**
   * CONTRACT_TEMPLATE_SYNC (default 1): write the contract template files into RegistrationContract and
   * ContractTemplate at start (src/contracts/sync.ts). Tests turn it off unless they test contracts, since other
   * suites set up registration contracts of their own.
   */
  contractTemplateSync: boolean;
  clock: Clock;
  // ---- KYC (identity verification; see the KYC block at the end of this file) ----
  kyc: KycConfig;

  // ---- KYB (issue 14: external companies) ----
  /**
   * KYB_HARD_GATE=1 makes the business-verification provider's verdict binding: kybservice.approve then needs
   * kyb_provider_status `approved`. Off (the default), the verdict is advisory and the administrator decides.
   */
  kybHardGate: boolean;

  // ---- Tax filings (issue 15; see the tax block at the end of this file) ----
  tax: TaxConfig;
  // ---- Treasury (issue 15; docs/decisions.md "Treasury") ----
  treasury: TreasuryConfig;
  // ---- Payments (issue 15) ----
  /** PAYMENT_PROVIDER: the payment provider set (src/integrations/payments/index.ts); `sandbox` is the only one. */
  paymentProvider: "sandbox";
  /** PAYMENT_SWEEP_INTERVAL_S: seconds between payment sweeps (crypto confirmations, expiry); 0 turns them off. */
  paymentSweepIntervalS: number;
  // ---- Proposals and votes (issue 17; see the proposals block at the end of this file) ----
  proposals: ProposalConfig;
  // ---- Member discipline chain (issue 17; see the discipline block at the end of this file) ----
  discipline: DisciplineConfig;
  // ---- Dividends (issue 17; see the dividends block at the end of this file) ----
  dividends: DividendConfig;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`invalid configuration: ${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function databaseTimeouts(env: Env): DatabaseTimeouts {
  const d = DEFAULT_TIMEOUTS;
  return {
    statementMs: int(env, "DB_STATEMENT_TIMEOUT_MS", d.statementMs),
    lockMs: int(env, "DB_LOCK_TIMEOUT_MS", d.lockMs),
    idleInTransactionMs: int(env, "DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", d.idleInTransactionMs),
    writeSlotWaitMs: int(env, "DB_WRITE_SLOT_WAIT_MS", d.writeSlotWaitMs, 1),
    connectMs: int(env, "DB_CONNECT_TIMEOUT_MS", d.connectMs, 1),
    keepAliveMs: int(env, "DB_KEEPALIVE_MS", d.keepAliveMs, 1),
  };
}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(name, `must be an integer >= ${min}, got "${raw}"`);
  return value;
}

/** Parses a 32-byte hex key; null when the variable is unset. */
export function hexKey(raw: string | undefined, name: string): Buffer | null {
  if (!raw) return null;
  if (!/^[0-9a-f]{64}$/i.test(raw.trim())) throw new ConfigError(name, "must be 64 hex characters (32 bytes)");
  return Buffer.from(raw.trim(), "hex");
}

/** The published sandbox webhook secret: anyone can sign webhooks with it, so production refuses it. */
export const DEFAULT_WEBHOOK_SECRET = "sandbox-webhook-secret";

interface Secrets {
  encryptionKey: Buffer;
  encryptionKeySource: Config["encryptionKeySource"];
  webhookSecret: string;
  warnings: string[];
}

/**
 * Known or missing secrets (issue 13 item 8). With NODE_ENV=production the default webhook secret and a missing
 * ENCRYPTION_KEY stop the start; with DATABASE_URL (a database several instances share) ENCRYPTION_KEY is
 * required, since each instance must open what the others sealed. Elsewhere they are start-up warnings, and on
 * PGlite the data directory's key file replaces the missing key (src/db/key-file.ts).
 */
function secrets(env: Env, databaseUrl: string | null): Secrets {
  const production = env["NODE_ENV"] === "production";
  const warnings: string[] = [];
  const key = hexKey(env["ENCRYPTION_KEY"], "ENCRYPTION_KEY");
  if (!key && production) throw new ConfigError("ENCRYPTION_KEY", "is required when NODE_ENV=production");
  if (!key && databaseUrl) {
    throw new ConfigError(
      "ENCRYPTION_KEY",
      "is required with DATABASE_URL: every instance sharing the database must read the secrets the others sealed",
    );
  }
  const webhookSecret = env["WEBHOOK_SECRET"] || DEFAULT_WEBHOOK_SECRET;
  if (webhookSecret === DEFAULT_WEBHOOK_SECRET) {
    if (production)
      throw new ConfigError("WEBHOOK_SECRET", "must be set to a secret of your own when NODE_ENV=production");
    warnings.push("WEBHOOK_SECRET is the published sandbox value: anyone can sign provider webhooks; set your own");
  }
  return {
    encryptionKey: key ?? randomBytes(32),
    encryptionKeySource: key ? "env" : "ephemeral",
    webhookSecret,
    warnings,
  };
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (!/^https?:\/\/[^\s]+$/.test(raw)) throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, "");
}

/** Where links in emails and the served OpenRPC `servers` point: PUBLIC_BASE_URL, else this server on PORT. */
function publicBaseUrl(env: Env): string {
  const base = url(env, "PUBLIC_BASE_URL", `http://localhost:${int(env, "PORT", 8080)}`);
  const parsed = URL.canParse(base) ? new URL(base) : null;
  if (!parsed || parsed.search || parsed.hash || parsed.username || parsed.password)
    throw new ConfigError(
      "PUBLIC_BASE_URL",
      `must be an http(s) URL without query, fragment or credentials, got "${base}"`,
    );
  return base;
}

export type LogFormat = "json" | "pretty" | "auto";

function logFormat(env: Env): LogFormat {
  const raw = env["LOG_FORMAT"];
  if (raw === undefined || raw === "") {
    if (env["NODE_ENV"] === "production") return "json";
    return env["NODE_ENV"] === "development" ? "pretty" : "auto";
  }
  if (raw !== "json" && raw !== "pretty" && raw !== "auto")
    throw new ConfigError("LOG_FORMAT", `must be json, pretty or auto, got "${raw}"`);
  return raw;
}

export const SECURE_ARGON2: Argon2Cost = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Reads the environment once at start; a bad value fails fast naming the variable. */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const databaseUrl = env["DATABASE_URL"] || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError("DATABASE_URL", "must be a postgres:// URL");
  const prefix = env["ID_PREFIX"] ?? "FZ";
  if (!/^[A-Z]{2,6}$/.test(prefix)) throw new ConfigError("ID_PREFIX", "must be 2 to 6 capital letters");
  const adminEmail = env["ADMIN_EMAIL"] || null;
  const adminPassword = env["ADMIN_PASSWORD"] || null;
  if ((adminEmail === null) !== (adminPassword === null)) {
    throw new ConfigError(adminEmail ? "ADMIN_PASSWORD" : "ADMIN_EMAIL", "must be set together with the other");
  }
  return {
    port: int(env, "PORT", 8080),
    host: env["HOST"] ?? "0.0.0.0",
    metricsPort: env["METRICS_PORT"] ? int(env, "METRICS_PORT", 0, 1) : null,
    metricsHost: env["METRICS_HOST"] || "127.0.0.1",
    databaseUrl,
    pgliteDir: databaseUrl ? null : (env["PGLITE_DIR"] ?? "./data"),
    databaseSchema: env["DATABASE_SCHEMA"] || null,
    idPrefix: prefix,
    ...secrets(env, databaseUrl),
    publicBaseUrl: publicBaseUrl(env),
    discountProfiles: (env["DISCOUNT_PROFILES"] ?? "standard,partner")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
    argon2: SECURE_ARGON2,
    accessTokenTtlS: int(env, "ACCESS_TOKEN_TTL_S", 3600, 1),
    refreshTokenTtlS: int(env, "REFRESH_TOKEN_TTL_S", 30 * 24 * 3600, 1),
    rateLimits: {
      perAddressPerMinute: 60,
      perAccountFailures: 10,
      perAccountWindowS: 15 * 60,
      emailsPerAddressPerHour: 5,
      recoveriesPerAccountPerDay: 3,
      frontendErrorsPerMinute: 30,
    },
    bodyLimitBytes: 1024 * 1024,
    database: databaseTimeouts(env),
    shutdownGraceMs: int(env, "SHUTDOWN_GRACE_MS", 10_000, 0),
    validateResults: env["VALIDATE_RESULTS"] === "1",
    maxBatchAnswerBytes: 4 * 1024 * 1024,
    logLevel: env["LOG_LEVEL"] ?? "info",
    logFormat: logFormat(env),
    adminEmail,
    adminPassword,
    allowedOrigins: (env["ALLOWED_ORIGINS"] ?? "").split(",").filter(Boolean),
    trustProxy: env["TRUST_PROXY"] === "1",
    contractTemplateSync: onOff(env, "CONTRACT_TEMPLATE_SYNC", true),
    clock: () => new Date(),
    kyc: kycConfig(env),
    // ---- KYB (issue 14: external companies) ----
    kybHardGate: onOff(env, "KYB_HARD_GATE", false),
    tax: taxConfig(env),
    treasury: treasuryConfig(env),
    // ---- Payments (issue 15) ----
    paymentProvider: paymentProvider(env),
    paymentSweepIntervalS: int(env, "PAYMENT_SWEEP_INTERVAL_S", 60),
    proposals: proposalConfig(env),
    // ---- Member discipline chain (issue 17) ----
    discipline: disciplineConfig(env),
    dividends: dividendConfig(env),
    ...overrides,
  };
}

// ---- KYC (identity verification, issue 14; docs/decisions.md "KYC sessions" and "KYC personal data") ----

export interface KycConfig {
  /** How long a provider session waits for a verdict before it reads expired (KYC_SESSION_TTL_S, default 24 hours). */
  sessionTtlS: number;
  /** A suspected verdict waits for an administrator (needs_review) instead of failing (KYC_MANUAL_REVIEW, default 1). */
  manualReview: boolean;
  /** Capture verified personal fields (KYC_PERSONAL_DATA, default 0), and which (KYC_PERSONAL_DATA_FIELDS, default all). */
  personalData: { enabled: boolean; fields: readonly KycPersonalField[] };
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw !== "0" && raw !== "1") throw new ConfigError(name, `must be 0 or 1, got "${raw}"`);
  return raw === "1";
}

function kycConfig(env: Env): KycConfig {
  const raw = env["KYC_PERSONAL_DATA_FIELDS"];
  const fields =
    raw === undefined
      ? [...KYC_PERSONAL_FIELDS]
      : raw
          .split(",")
          .map((f) => f.trim())
          .filter(Boolean);
  const unknown = fields.find((f) => !(KYC_PERSONAL_FIELDS as readonly string[]).includes(f));
  if (unknown !== undefined) {
    throw new ConfigError(
      "KYC_PERSONAL_DATA_FIELDS",
      `names an unknown field "${unknown}" (known: ${KYC_PERSONAL_FIELDS})`,
    );
  }
  return {
    sessionTtlS: int(env, "KYC_SESSION_TTL_S", 24 * 3600, 60),
    manualReview: onOff(env, "KYC_MANUAL_REVIEW", true),
    personalData: { enabled: onOff(env, "KYC_PERSONAL_DATA", false), fields: fields as KycPersonalField[] },
  };
}

// ---- Tax filings (issue 15; docs/decisions.md "Tax filings") ----

export interface TaxConfig {
  /** Rate applied to taxable income, a fraction from 0 to 1 with at most 6 decimals (TAX_RATE, default 0.15). */
  rate: number;
  /** Currency filings are made in (TAX_CURRENCY, default USD). */
  currency: string;
  /**
   * Days after a period's end (exclusive end, UTC midnight) until its filing is due: TAX_DUE_DAYS_MONTHLY (default
   * 20), TAX_DUE_DAYS_QUARTERLY (default 30), TAX_DUE_DAYS_ANNUAL (default 90).
   */
  dueDays: Record<TaxPeriod, number>;
  /** Period types every company files, listed by get_deadlines (TAX_REQUIRED_PERIODS, default quarterly,annual). */
  requiredPeriods: readonly TaxPeriod[];
}

function taxRate(env: Env): number {
  const raw = env["TAX_RATE"];
  if (raw === undefined || raw === "") return 0.15;
  const rate = Number(raw);
  if (!/^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(raw) || !(rate >= 0 && rate <= 1)) {
    throw new ConfigError("TAX_RATE", `must be a fraction from 0 to 1 with at most 6 decimals, got "${raw}"`);
  }
  return rate;
}

function taxConfig(env: Env): TaxConfig {
  const currency = env["TAX_CURRENCY"] || "USD";
  if (!/^[A-Z]{3}$/.test(currency))
    throw new ConfigError("TAX_CURRENCY", `must be an ISO 4217 code, got "${currency}"`);
  const periods = (env["TAX_REQUIRED_PERIODS"] ?? "quarterly,annual")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = periods.find((p) => !(TAX_PERIODS as readonly string[]).includes(p));
  if (unknown !== undefined) {
    throw new ConfigError("TAX_REQUIRED_PERIODS", `names an unknown period "${unknown}" (known: ${TAX_PERIODS})`);
  }
  return {
    rate: taxRate(env),
    currency,
    dueDays: {
      monthly: int(env, "TAX_DUE_DAYS_MONTHLY", 20, 1),
      quarterly: int(env, "TAX_DUE_DAYS_QUARTERLY", 30, 1),
      annual: int(env, "TAX_DUE_DAYS_ANNUAL", 90, 1),
    },
    requiredPeriods: [...new Set(periods)] as TaxPeriod[],
  };
}

// ---- Treasury (issue 15; docs/decisions.md "Treasury") ----

export interface TreasuryConfig {
  /** treasuryservice.fund_account may credit accounts (TREASURY_SANDBOX_FUNDING; default on unless NODE_ENV=production). */
  sandboxFunding: boolean;
  /** Fee on external transfers, percent of the amount (TREASURY_EXTERNAL_FEE_PERCENT, default 0.5). */
  externalFeePercent: number;
  /** Fee on exchanges, percent of from_amount (TREASURY_EXCHANGE_FEE_PERCENT, default 0.5). */
  exchangeFeePercent: number;
  /** How long an exchange quote holds (TREASURY_QUOTE_TTL_S, default 60 seconds). */
  quoteTtlS: number;
}

function percent(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value >= 100 || !/^\d+(\.\d{1,4})?$/.test(raw)) {
    throw new ConfigError(name, `must be a percentage from 0 to below 100 with at most 4 decimals, got "${raw}"`);
  }
  return value;
}

function treasuryConfig(env: Env): TreasuryConfig {
  return {
    sandboxFunding: onOff(env, "TREASURY_SANDBOX_FUNDING", env["NODE_ENV"] !== "production"),
    externalFeePercent: percent(env, "TREASURY_EXTERNAL_FEE_PERCENT", 0.5),
    exchangeFeePercent: percent(env, "TREASURY_EXCHANGE_FEE_PERCENT", 0.5),
    quoteTtlS: int(env, "TREASURY_QUOTE_TTL_S", 60, 1),
  };
}

// ---- Payments (issue 15) ----

function paymentProvider(env: Env): Config["paymentProvider"] {
  const raw = env["PAYMENT_PROVIDER"] || "sandbox";
  if (raw !== "sandbox") throw new ConfigError("PAYMENT_PROVIDER", `must be "sandbox", got "${raw}"`);
  return raw;
}

// ---- Proposals and votes (issue 17; docs/decisions.md "Proposals, votes and resolutions (issue 17)") ----

/** Quorum and passing percentages of one ResolutionKind, integers 0 to 100, stamped on each proposal at creation. */
export interface ProposalThresholds {
  quorum: number;
  passing: number;
}

export interface ProposalConfig {
  /**
   * Per kind: PROPOSAL_<KIND>_QUORUM and PROPOSAL_<KIND>_PASSING (KIND = ORDINARY, SPECIAL, BOARD). Defaults:
   * ordinary 50 / 50 (passes with MORE than 50 percent for), special 50 / 75 (passes with AT LEAST 75 percent),
   * board 50 / 50 (passes with more than 50 percent, like ordinary).
   */
  thresholds: { ordinary: ProposalThresholds; special: ProposalThresholds; board: ProposalThresholds };
  /** PROPOSAL_EXPIRY_HOURS (default 168, 7 days): an untallied proposal expires this long after voting_ends_at. */
  expiryHours: number;
  /** PROPOSAL_SWEEP_INTERVAL_S: seconds between expiry sweeps (default 300); 0 turns them off. */
  sweepIntervalS: number;
}

/**
 * A whole percentage from `floor` to 100. A floor is the seed's own rule for the setting (seed 001 Limits: an
 * ordinary resolution passes with more than 50 percent, a special one needs at least 75): configuration may make
 * such a rule stricter, never weaker (docs/decisions.md "Small companies and smaller slips (issue 30)").
 */
function wholePercent(env: Env, name: string, fallback: number, floor?: { min: number; rule: string }): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d{1,3}$/.test(raw) || value > 100)
    throw new ConfigError(name, `must be an integer from 0 to 100, got "${raw}"`);
  if (floor && value < floor.min) {
    throw new ConfigError(
      name,
      `must be at least ${floor.min} (${floor.rule}; configuration may make it stricter, never weaker), got "${raw}"`,
    );
  }
  return value;
}

/** The seed's floors of the passing thresholds (seed 001 Limits); quorum and board thresholds have none. */
export const SEED_PASSING_FLOORS = {
  ordinary: { min: 50, rule: "the seed's ordinary resolution passes with more than 50 percent" },
  special: { min: 75, rule: "the seed's special resolution needs at least 75 percent" },
} as const;

function proposalConfig(env: Env): ProposalConfig {
  const kind = (
    name: string,
    quorum: number,
    passing: number,
    floor?: { min: number; rule: string },
  ): ProposalThresholds => ({
    quorum: wholePercent(env, `PROPOSAL_${name}_QUORUM`, quorum),
    passing: wholePercent(env, `PROPOSAL_${name}_PASSING`, passing, floor),
  });
  return {
    thresholds: {
      ordinary: kind("ORDINARY", 50, 50, SEED_PASSING_FLOORS.ordinary),
      special: kind("SPECIAL", 50, 75, SEED_PASSING_FLOORS.special),
      board: kind("BOARD", 50, 50),
    },
    expiryHours: int(env, "PROPOSAL_EXPIRY_HOURS", 168, 1),
    sweepIntervalS: int(env, "PROPOSAL_SWEEP_INTERVAL_S", 300),
  };
}

// ---- Member discipline chain (issue 17; docs/decisions.md "Member discipline chain") ----

function executorSet(env: Env, name: string, fallback: readonly ExecutorRole[]): readonly ExecutorRole[] {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const roles = [
    ...new Set(
      raw
        .split(",")
        .map((r) => r.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = roles.find((r) => !(EXECUTOR_ROLES as readonly string[]).includes(r));
  if (unknown !== undefined) {
    throw new ConfigError(name, `names an unknown ExecutorRole "${unknown}" (known: ${EXECUTOR_ROLES})`);
  }
  if (roles.length === 0) throw new ConfigError(name, "must name at least one ExecutorRole");
  return roles as ExecutorRole[];
}

function disciplineConfig(env: Env): DisciplineConfig {
  const sla = (step: DisciplineStep, fallback: number, min: number) =>
    int(env, `DISCIPLINE_SLA_${step.toUpperCase()}_DAYS`, fallback, min);
  return {
    slaDays: {
      notice: sla("notice", 14, 1),
      response: sla("response", 14, 1),
      review: sla("review", 14, 1),
      decision: sla("decision", 14, 1),
      appeal: sla("appeal", 30, 1),
      appeal_decision: sla("appeal_decision", 0, 0),
    },
    executors: {
      decision: executorSet(env, "DISCIPLINE_DECISION_EXECUTORS", ["governance_board", "ethics_committee"]),
      appeal_decision: executorSet(env, "DISCIPLINE_APPEAL_EXECUTORS", ["internal_appeals_committee", "arbitration"]),
    },
  };
}

// ---- Dividends (issue 17; docs/decisions.md "Share transfers and dividends (issue 17)") ----

export interface DividendConfig {
  /**
   * DIVIDEND_REQUIRES_VOTE (default off): initiate_dividend opens an ordinary financial proposal and the dividend
   * waits `proposed` until the proposal has passed.
   */
  requireVote: boolean;
  /** DIVIDEND_VOTE_DAYS (default 7, at least 1): the voting period of that proposal. */
  voteDays: number;
}

function dividendConfig(env: Env): DividendConfig {
  return {
    requireVote: onOff(env, "DIVIDEND_REQUIRES_VOTE", false),
    voteDays: int(env, "DIVIDEND_VOTE_DAYS", 7, 1),
  };
}
