import { randomBytes } from "node:crypto";

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
  databaseUrl: string | null;
  /** PGlite data directory; null keeps the database in memory. */
  pgliteDir: string | null;
  /** PostgreSQL schema to use (tests give each worker its own). */
  databaseSchema: string | null;
  idPrefix: string;
  /** 32-byte key for AES-256-GCM encryption at rest. */
  encryptionKey: Buffer;
  /** ENCRYPTION_KEY was set: secrets that must survive a restart (TOTP seeds) are encrypted only then. */
  encryptionKeyConfigured: boolean;
  /** Base URL of the web client, for links in emails. */
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
  /** The most one batch answers on /rpc (bytes); later calls are refused without running. */
  maxBatchAnswerBytes: number;
  logLevel: string;
  adminEmail: string | null;
  adminPassword: string | null;
  allowedOrigins: string[];
  /** Take the client address from X-Forwarded-For (only behind a load balancer that sets it). */
  trustProxy: boolean;
  clock: Clock;
  // ---- KYC (identity verification; see the KYC block at the end of this file) ----
  kyc: KycConfig;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`invalid configuration: ${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(name, `must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function key(env: Env, name: string): Buffer {
  const raw = env[name];
  if (!raw) return randomBytes(32);
  if (!/^[0-9a-f]{64}$/i.test(raw)) throw new ConfigError(name, "must be 64 hex characters (32 bytes)");
  return Buffer.from(raw, "hex");
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (!/^https?:\/\/[^\s]+$/.test(raw)) throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, "");
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
    databaseUrl,
    pgliteDir: databaseUrl ? null : (env["PGLITE_DIR"] ?? "./data"),
    databaseSchema: env["DATABASE_SCHEMA"] || null,
    idPrefix: prefix,
    encryptionKey: key(env, "ENCRYPTION_KEY"),
    encryptionKeyConfigured: Boolean(env["ENCRYPTION_KEY"]),
    publicBaseUrl: url(env, "PUBLIC_BASE_URL", "http://localhost:8080"),
    discountProfiles: (env["DISCOUNT_PROFILES"] ?? "standard,partner")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
    webhookSecret: env["WEBHOOK_SECRET"] ?? "sandbox-webhook-secret",
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
    validateResults: env["VALIDATE_RESULTS"] === "1",
    maxBatchAnswerBytes: 4 * 1024 * 1024,
    logLevel: env["LOG_LEVEL"] ?? "info",
    adminEmail,
    adminPassword,
    allowedOrigins: (env["ALLOWED_ORIGINS"] ?? "").split(",").filter(Boolean),
    trustProxy: env["TRUST_PROXY"] === "1",
    clock: () => new Date(),
    kyc: kycConfig(env),
    ...overrides,
  };
}

// ---- KYC (identity verification, issue 14; docs/decisions.md "KYC sessions" and "KYC personal data") ----

/** The verified personal fields an identity provider may send (KycPersonalData). */
export const KYC_PERSONAL_FIELDS = [
  "dob",
  "nationality",
  "document_number",
  "document_type",
  "document_expiry",
] as const;
export type KycPersonalField = (typeof KYC_PERSONAL_FIELDS)[number];

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
