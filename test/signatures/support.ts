import { createHash, randomBytes } from "node:crypto";
import * as ed from "@noble/ed25519";
import "../../src/domain/ed25519.ts"; // configures SHA-512 for @noble/ed25519's synchronous API
import type { Config } from "../../src/config.ts";
import type { Client, TestApp } from "../support/app.ts";
import * as entities from "../support/entities.ts";
import { count } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

/**
 * Set-up for the keys, signatures and verification tests: residents, companies, roles, proxies and KYC sessions
 * are inserted straight into the database (their own operations belong to other helpers and issues), and keypairs
 * are made here as a client would make them.
 */

const orm = (t: TestApp) => t.app.runtime.orm;

export { insertProxy } from "../support/entities.ts";

/** A DigitalResident row (active, owned by `userId` unless `extra` says otherwise); its formatted id. */
export function insertResident(
  t: TestApp,
  userId: string | null,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return entities.insertResident(t, userId, { created_at: new Date("2026-01-15T08:00:00.000Z"), ...extra });
}

/** A ZoneCompany row owned by `userId`; its formatted id. */
export function insertCompany(t: TestApp, userId: string, extra: Record<string, unknown> = {}): Promise<string> {
  return entities.insertCompany(t, userId, (n) => ({
    name: `Analytical Engines ${n} FZC`,
    created_at: new Date("2026-02-01T08:00:00.000Z"),
    ...extra,
  }));
}

/** A current CompanyRole of a resident (public classification scope unless `extra` says otherwise). */
export function insertRole(
  t: TestApp,
  companyId: string,
  subjectId: string,
  role: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  return entities.insertRole(t, companyId, subjectId, role, { classification_scope: ["public"], ...extra });
}

/** A completed KYC session with the identity verified. */
export async function insertVerifiedKyc(t: TestApp, userId: string, residentId: string): Promise<void> {
  await insertRow(orm(t), "KycSession", {
    user_id: userId,
    resident_id: residentId,
    public_key: "",
    kyc_url: "https://kyc.sandbox.invalid/s/1",
    status: "completed",
    identity_verified: true,
    document_verified: true,
    liveness_verified: true,
    verification_level: "full",
    expires_at: new Date("2026-11-23T11:00:00.000Z"),
    verified_at: new Date("2026-03-01T12:00:00.000Z"),
  });
}

/** A client-side keypair: the secret never leaves the test, as it never leaves a real client. */
export interface TestKeypair {
  secret: Uint8Array;
  publicKey: string;
  /** An opaque client blob, hex(nonce):hex(ciphertext), as an AES-256-GCM encryption of the secret would look. */
  encrypted: string;
  /** Signs the 32 raw bytes of a lowercase hex SHA-256. */
  sign(documentHash: string): string;
}

export function newKeypair(): TestKeypair {
  const secret = ed.utils.randomSecretKey();
  return {
    secret,
    publicKey: Buffer.from(ed.getPublicKey(secret)).toString("hex"),
    encrypted: `${randomBytes(12).toString("hex")}:${randomBytes(48).toString("hex")}`,
    sign: (documentHash) => Buffer.from(ed.sign(Buffer.from(documentHash, "hex"), secret)).toString("hex"),
  };
}

export function documentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The signature with S + L in place of S: the malleable twin a strict verifier refuses. */
export function malleableTwin(signature: string): string {
  const order = 2n ** 252n + 27742317777372353535851937790883648493n;
  const bytes = Buffer.from(signature, "hex");
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(bytes[i] ?? 0);
  let twin = s + order;
  for (let i = 32; i < 64; i++) {
    bytes[i] = Number(twin & 0xffn);
    twin >>= 8n;
  }
  return bytes.toString("hex");
}

/** A small-order point (order 8): a key a strict verifier refuses. */
export const SMALL_ORDER_KEY = "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a";

/** Row counts of the tables these operations write, to check that a refusal wrote nothing. */
export async function signingRows(t: TestApp): Promise<Record<string, number>> {
  const tables = ["public_key_history", "document_signature", "verification_link"];
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = await count(t, table);
  return out;
}

/**
 * A signed-in user with its personal resident: a user has at most one (the database's partial unique index), so
 * each test that needs an owner makes one.
 */
export function member(t: TestApp, extra: Record<string, unknown> = {}): Promise<{ client: Client; resident: string }> {
  return entities.member(t, { created_at: new Date("2026-01-15T08:00:00.000Z"), ...extra });
}

/** A test app whose per-address limit does not stop the many registrations of a file. */
export function startSigningApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  return entities.startFinanceApp(overrides);
}
