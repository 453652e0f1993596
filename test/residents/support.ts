import type { CreateResidentData } from "../../generated/types.ts";
import { inCallTransaction } from "../../src/rpc/call-transaction.ts";
import type { Caller } from "../../src/rpc/context.ts";
import { createContext } from "../../src/rpc/runtime-context.ts";
import type { Client, RpcReply, TestApp } from "../support/app.ts";
import * as entities from "../support/entities.ts";
import { sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";

/**
 * Residents and registration tests: rows of other issues' tables (payments, KYC sessions, registration contracts
 * and signatures, proxies, partner-onboarded residents) are inserted directly, as those issues' operations would
 * leave them.
 */

let sequence = 0;

export function residentData(changes: Partial<CreateResidentData> = {}): CreateResidentData {
  return { email: "ada@example.org", first_name: "Ada", last_name: "Lovelace", phone: "+255 700 000 001", ...changes };
}

export async function createResident(client: Client, changes: Partial<CreateResidentData> = {}) {
  return client.callOk("residentservice.create", { data: residentData(changes) });
}

/** The stored resident row (raw SQL: timestamps as the driver returns them). */
export async function residentRow(t: TestApp, residentId: string): Promise<Record<string, any> | undefined> {
  return (await sql(t, `select * from "digital_resident" where resident_id = ?`, [residentId]))[0];
}

export async function verifyEmail(t: TestApp, userId: string): Promise<void> {
  await sql(t, `update "user" set email_verified = true where sid = ?`, [userId]);
}

const orm = (t: TestApp) => t.app.runtime.orm;

export async function insertPayment(
  t: TestApp,
  userId: string,
  entityId: string,
  values: Record<string, unknown> = {},
): Promise<string> {
  const row = await insertRow(orm(t), "Payment", {
    user_id: userId,
    entity_id: entityId,
    entity_type: "resident",
    payment_type: "mobilepay",
    amount: 108,
    currency: "USD",
    payment_purpose: "resident_subscription",
    subscription_plan: "1_year",
    status: "confirmed",
    expires_at: new Date("2026-11-24T10:00:00.000Z"),
    confirmed_at: new Date("2026-11-23T09:30:00.000Z"),
    ...values,
  });
  return String(row["sid"]);
}

export async function insertKycSession(
  t: TestApp,
  userId: string,
  residentId: string,
  values: Record<string, unknown> = {},
): Promise<string> {
  sequence += 1;
  const row = await insertRow(orm(t), "KycSession", {
    user_id: userId,
    resident_id: residentId,
    public_key: "a".repeat(64),
    kyc_url: `https://kyc.sandbox.invalid/s/${sequence}`,
    status: "completed",
    kycprovider_scan_ref: `scan-${sequence}-${Date.now()}`,
    identity_verified: true,
    document_verified: true,
    liveness_verified: true,
    expires_at: new Date("2026-11-24T10:00:00.000Z"),
    verified_at: new Date("2026-11-23T09:45:00.000Z"),
    ...values,
  });
  return String(row["sid"]);
}

export async function insertContract(
  t: TestApp,
  categoryKey: string,
  values: Record<string, unknown> = {},
): Promise<{ sid: string; version: string }> {
  const row = await insertRow(orm(t), "RegistrationContract", {
    category_key: categoryKey,
    category: "terms_of_service",
    version: "2026.1",
    title: categoryKey,
    content: `# ${categoryKey}`,
    content_hash: "0".repeat(64),
    required_for: ["resident"],
    company_types: [],
    is_active: true,
    effective_from: null,
    ...values,
  });
  return { sid: String(row["sid"]), version: String(row["version"]) };
}

export async function insertSignature(
  t: TestApp,
  userId: string,
  contract: { sid: string; version: string },
  values: Record<string, unknown> = {},
): Promise<void> {
  sequence += 1;
  await insertRow(orm(t), "ContractSignature", {
    user_id: userId,
    contract_id: contract.sid,
    contract_version: contract.version,
    receipt_id: `receipt-${sequence}-${Date.now()}`,
    signed_at: new Date("2026-11-23T09:40:00.000Z"),
    entity_type: "user",
    entity_name: "Ada Lovelace",
    entity_id: "",
    ip_address: null,
    ...values,
  });
}

/** An effective Proxy: `principal` acts for `target` (valid from an hour before the test clock's start). */
export function insertProxy(
  t: TestApp,
  principal: string,
  target: string,
  values: Record<string, unknown> = {},
): Promise<void> {
  return entities.insertProxy(t, principal, target, {
    valid_from: new Date("2026-11-23T09:00:00.000Z"),
    created_by: "admin@example.org",
    revoked_at: null,
    ...values,
  });
}

/**
 * A resident row inserted as another issue (reseller request, KYB) or a migration would leave it; its id is of
 * 2019, so it never meets one that residentservice.create numbers in the test clock's year.
 */
export async function insertResident(t: TestApp, values: Record<string, unknown>): Promise<string> {
  sequence += 1;
  const id = `FZ-2019-RA${String(sequence).padStart(6, "0")}`;
  const row = await insertRow(
    orm(t),
    "DigitalResident",
    residentValues(String(values["user_id"] ?? ""), { resident_id: id, ...values }),
  );
  return String(row["resident_id"]);
}

export interface Partner {
  partnerId: string;
  walletUserId: string;
  key: string;
  /** A call with the partner's reseller key. */
  rpc(method: string, params?: unknown): Promise<RpcReply>;
}

/** A partner (created by the administrator) and a reseller key for it. */
export async function createPartner(t: TestApp, admin: Client, name = "Acme Residency"): Promise<Partner> {
  const p = (await admin.rpc("partnerservice.create_partner", { name })).result;
  const generated = await t.rpc("apikeyservice.generate", {
    client_id: p.client_id,
    client_secret: p.client_secret,
    access_password: p.access_password,
  });
  const key: string = generated.result.api_key;
  return {
    partnerId: p.partner_id,
    walletUserId: p.wallet_user_id,
    key,
    rpc: (method, params = {}) => t.rpc(method, params, { "x-api-key": key }),
  };
}

/**
 * Runs a method the way the server runs its own internal calls (the KYC webhook, an administrator approval):
 * in-process, past the dispatcher's outside-caller checks, in one transaction, params and result schema-checked.
 */
export async function serverCall(
  t: TestApp,
  method: string,
  params: Record<string, unknown>,
  caller: Caller | null = null,
): Promise<{ result: any } | { error: any }> {
  const runtime = t.app.runtime;
  const entry = runtime.registry.get(method);
  if (!entry) throw new Error(`no method ${method}`);
  const request = { requestId: "server", ip: "127.0.0.1", userAgent: null, rawBody: "", headers: {} };
  const ctx = createContext(runtime, caller, request, entry);
  if (!entry.validateParams(params))
    throw new Error(`${method}: params ${JSON.stringify(entry.validateParams.errors)}`);
  try {
    const result = await inCallTransaction(ctx, entry.mcp.readOnly, async () => entry.invoke(ctx, params));
    if (!entry.validateResult(result))
      throw new Error(`${method}: result ${JSON.stringify(entry.validateResult.errors)}`);
    return { result };
  } catch (err) {
    if (err instanceof Error && "code" in err) return { error: JSON.parse(JSON.stringify(err)) };
    throw err;
  }
}
