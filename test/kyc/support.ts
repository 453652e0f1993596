import type { KycProviderWebhookData } from "../../generated/types.ts";
import { sandboxKycCallback, sandboxKycVerdict } from "../../src/integrations/identity/sandbox-kyc.ts";
import type { Client, TestApp } from "../support/app.ts";
import * as entities from "../support/entities.ts";
import { sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

/** RFC 8032 test vectors 1 and 2: valid Ed25519 public keys. */
export const KEY_1 = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
export const KEY_2 = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";

/**
 * A DigitalResident row as the resident services will create it (they belong to another part of issue 14): a
 * pending personal resident of `userId`, no KYC reference and no key yet. `extra` overrides any field
 * (`last_name: "sandbox-suspected"` picks the sandbox's verdict, `partner_id`, `status`, ...).
 */
export function insertResident(
  t: TestApp,
  userId: string | null,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return entities.insertResident(t, userId, {
    phone: "+255700000000",
    kyc_provider_id: "",
    status: "pending",
    public_key: null,
    encrypted_private_key: null,
    ...extra,
  });
}

/** start_verification by `client`; the session's scan reference read from the database. */
export async function startKyc(
  t: TestApp,
  client: Pick<Client, "callOk">,
  residentId: string,
  publicKey = KEY_1,
): Promise<{ sessionId: string; scanRef: string; expiresAt: string }> {
  const r = await client.callOk("kycservice.start_verification", { resident_id: residentId, public_key: publicKey });
  return { sessionId: r.session_id, scanRef: await scanRefOf(t, r.session_id), expiresAt: r.expires_at };
}

export async function scanRefOf(t: TestApp, sessionId: string): Promise<string> {
  const rows = await sql<{ kycprovider_scan_ref: string }>(
    t,
    `select kycprovider_scan_ref from "kyc_session" where sid = ?`,
    [sessionId],
  );
  return rows[0]?.kycprovider_scan_ref ?? "";
}

let events = 0;

/** The verdict the sandbox would post for a scan reference (approved unless the resident's name said otherwise). */
export function sandboxVerdict(t: TestApp, scanRef: string, changes: Partial<KycProviderWebhookData> = {}) {
  events += 1;
  const data = sandboxKycVerdict(scanRef, `evt-kyc-${events}`, t.clock.now());
  if (!data) throw new Error(`the sandbox never answers for ${scanRef}`);
  return { ...data, ...changes };
}

/** A hand-made verdict for any scan reference (fields the sandbox would not send). */
export function verdict(t: TestApp, scanRef: string, changes: Partial<KycProviderWebhookData> = {}) {
  events += 1;
  const data: KycProviderWebhookData = {
    event_id: `evt-kyc-${events}`,
    scan_ref: scanRef,
    verdict: "approved",
    kyc_provider_id: `idref-${events}`,
    identity_verified: true,
    document_verified: true,
    liveness_verified: true,
    verification_level: "full",
    reason: null,
    personal_data: null,
    occurred_at: t.clock.now().toISOString(),
  };
  return { ...data, ...changes };
}

/** Posts a verdict to /rpc signed as the provider would (secret and time can be changed to test refusals). */
export function deliver(t: TestApp, data: KycProviderWebhookData, secret = t.config.webhookSecret, at = t.clock.now()) {
  const { body, headers } = sandboxKycCallback(secret, data, at);
  return t.post("/rpc", body, headers);
}

export async function sessionRow(t: TestApp, sessionId: string): Promise<Record<string, any>> {
  return (await sql(t, `select * from "kyc_session" where sid = ?`, [sessionId]))[0] ?? {};
}

export async function residentRow(t: TestApp, residentId: string): Promise<Record<string, any>> {
  return (await sql(t, `select * from "digital_resident" where resident_id = ?`, [residentId]))[0] ?? {};
}

export function auditRows(t: TestApp, action: string) {
  return sql<{ subject_id: string; target_ref: string; target_type: string; allowed: boolean; context: string }>(
    t,
    `select subject_id, target_ref, target_type, allowed, context from "user_audit_log" where action = ? order by sid`,
    [action],
  );
}

/** A partner with one reseller key (its plaintext and id), made through the real operations. */
export async function partnerWithKey(t: TestApp, admin: Client, name = "Acme Residency") {
  const p = await admin.callOk("partnerservice.create_partner", { name });
  const key = await t.callOk("apikeyservice.generate", {
    client_id: p.client_id,
    client_secret: p.client_secret,
    access_password: p.access_password,
  });
  const withKey = (method: string, params: unknown = {}) => t.rpc(method, params, { "x-api-key": key.api_key });
  return { partnerId: p.partner_id, walletUserId: p.wallet_user_id, key: key.api_key, keyId: key.key_id, rpc: withKey };
}

/** A RegistrationRequest row of a partner (its operations belong to another part of issue 14). */
let requests = 0;

export async function insertRequest(t: TestApp, partnerId: string, status = "pending"): Promise<string> {
  // A client email of its own: a partner has at most one open request per client email and type.
  requests += 1;
  const row = await insertRow(t.app.runtime.orm, "RegistrationRequest", {
    partner_id: partnerId,
    request_type: "resident",
    client_email: `client${requests}@example.org`,
    client_name: "Client Person",
    reseller_signature: "sig",
    status,
  });
  return String(row["sid"]);
}
