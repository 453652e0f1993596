import { createHash } from "node:crypto";
import * as ed from "@noble/ed25519";
import type { MethodMap, MethodName } from "../../generated/methods.ts";
import { signingKeyPayload } from "../../src/domain/partner-signing-keys.ts";
import { approvalPayload, resellerPayload, type SignedRequestFields } from "../../src/domain/registration-requests.ts";
import { payloadDigest } from "../../src/domain/request-signature.ts";
import { type Client, type RpcReply, type TestApp, type TypedCaller, typedCaller } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";

ed.hashes.sha512 ??= (m) => new Uint8Array(createHash("sha512").update(m).digest());

export interface KeyPair {
  secret: Uint8Array;
  publicHex: string;
}

export function keyPair(): KeyPair {
  const secret = ed.utils.randomSecretKey();
  return { secret, publicHex: Buffer.from(ed.getPublicKey(secret)).toString("hex") };
}

export function signHex(secret: Uint8Array, payload: string): string {
  return Buffer.from(ed.sign(payloadDigest(payload), secret)).toString("hex");
}

/** A partner with a registered signing key, its wallet user and a reseller key to call with. */
export interface Partner extends TypedCaller {
  partnerId: string;
  walletUserId: string;
  apiKey: string;
  keys: KeyPair;
  rpc(method: string, params?: unknown): Promise<RpcReply>;
  /** The partner's signature over a request's canonical payload. */
  sign(fields: Omit<SignedRequestFields, "reseller_id">): string;
}

export async function newPartner(
  t: TestApp,
  admin: Client,
  options: { name?: string; allow_company_creation?: boolean; signingKey?: boolean } = {},
): Promise<Partner> {
  const created = await admin.callOk("partnerservice.create_partner", {
    name: options.name ?? "Acme Residency",
    allow_company_creation: options.allow_company_creation ?? false,
  });
  const keys = keyPair();
  const generated = await t.callOk("apikeyservice.generate", {
    client_id: created.client_id,
    client_secret: created.client_secret,
    access_password: created.access_password,
  });
  if (options.signingKey !== false) {
    // The partner registers its key itself, with its reseller key and proof of possession (version 1).
    await t
      .rpc(
        "partnerservice.register_signing_key",
        {
          public_key: keys.publicHex,
          proof_signature: signHex(keys.secret, signingKeyPayload(created.partner_id, 1, keys.publicHex)),
        },
        { "x-api-key": generated.api_key },
      )
      .then((r) => {
        if (r.error) throw new Error(`register_signing_key failed: ${JSON.stringify(r.error)}`);
      });
  }
  const rpc = (method: string, params: unknown = {}) => t.rpc(method, params, { "x-api-key": generated.api_key });
  return {
    partnerId: created.partner_id,
    walletUserId: created.wallet_user_id,
    apiKey: generated.api_key,
    keys,
    rpc,
    ...typedCaller(rpc),
    sign: (fields) => signHex(keys.secret, resellerPayload({ reseller_id: created.partner_id, ...fields })),
  };
}

/** Linked records a partner's client has: a completed KYC session, a confirmed payment, signed required contracts. */
export interface Links {
  kyc_session_id: string;
  payment_id: string;
  signed_contract_ids: string[];
}

export async function requiredContract(t: TestApp, requiredFor: string[] = ["resident"]): Promise<string> {
  const row = await insertRow(t.app.runtime.orm, "RegistrationContract", {
    category_key: `terms-${Math.random().toString(36).slice(2)}`,
    category: "terms_of_service",
    version: "2026.1",
    title: "Terms",
    content: "terms",
    content_hash: "00",
    required_for: requiredFor,
    is_active: true,
  });
  return String(row["sid"]);
}

export async function links(
  t: TestApp,
  userId: string,
  contracts: string[],
  overrides: { kyc?: Record<string, unknown>; payment?: Record<string, unknown> } = {},
): Promise<Links> {
  const orm = t.app.runtime.orm;
  const kyc = await insertRow(orm, "KycSession", {
    user_id: userId,
    resident_id: "FZ-2026-RA999999",
    public_key: "",
    kyc_url: "https://identity.sandbox.invalid/k",
    status: "completed",
    identity_verified: true,
    document_verified: true,
    liveness_verified: true,
    verification_level: "full",
    expires_at: new Date("2026-12-01T00:00:00.000Z"),
    verified_at: new Date("2026-11-23T09:30:00.000Z"),
    ...overrides.kyc,
  });
  const payment = await insertRow(orm, "Payment", {
    user_id: userId,
    entity_id: "",
    entity_type: "resident",
    payment_type: "mobilepay",
    amount: 120,
    currency: "USD",
    external_id: "pay-ext",
    payment_purpose: "resident_subscription",
    status: "confirmed",
    expires_at: new Date("2026-12-01T00:00:00.000Z"),
    confirmed_at: new Date("2026-11-23T09:40:00.000Z"),
    ...overrides.payment,
  });
  const signatures: string[] = [];
  for (const contractId of contracts) {
    const s = await insertRow(orm, "ContractSignature", {
      user_id: userId,
      contract_id: contractId,
      contract_version: "2026.1",
      receipt_id: `rcpt-${Math.random().toString(36).slice(2)}`,
      signed_at: new Date("2026-11-23T09:45:00.000Z"),
      entity_type: "user",
      entity_name: "Client",
    });
    signatures.push(String(s["sid"]));
  }
  return { kyc_session_id: String(kyc["sid"]), payment_id: String(payment["sid"]), signed_contract_ids: signatures };
}

export type SubmitParams = Omit<
  MethodMap["registrationrequestservice.submit_registration_request"]["params"],
  "reseller_id"
>;

/** Submit params signed by the partner (the signature covers exactly these values, normalized as the server stores). */
export function signedSubmit(
  partner: Partner,
  fields: Partial<Omit<SubmitParams, "reseller_signature">> & Pick<SubmitParams, "client_email">,
): SubmitParams {
  const params = {
    request_type: "resident" as const,
    client_name: "Ada Lovelace",
    signed_contract_ids: [] as string[],
    ...fields,
  };
  const reseller_signature = partner.sign({
    request_type: params.request_type,
    client_email: params.client_email.trim().toLowerCase(),
    client_name: params.client_name.trim(),
    kyc_session_id: params.kyc_session_id ?? null,
    payment_id: params.payment_id ?? null,
    signed_contract_ids: params.signed_contract_ids,
  });
  return { ...params, reseller_signature };
}

let oldIds = 0;
/** A resident id of an earlier year, so rows inserted here never take a number createResident mints this year. */
export function oldResidentId(): string {
  oldIds += 1;
  return `FZ-2025-RA${String(oldIds).padStart(6, "0")}`;
}

/** An administrator with a resident key, and its signature over a request's approval payload. */
export async function adminWithKey(t: TestApp, admin: Client): Promise<KeyPair> {
  const keys = keyPair();
  await insertRow(
    t.app.runtime.orm,
    "DigitalResident",
    residentValues(admin.userId, { resident_id: oldResidentId(), email: admin.email, public_key: keys.publicHex }),
  );
  return keys;
}

/** The administrator's approval signature over the request as stored. */
export async function approvalSignature(
  t: TestApp,
  keys: KeyPair,
  requestId: string,
  adminEmail: string,
): Promise<string> {
  const row = (await sql(t, `select * from "registration_request" where sid = ?`, [requestId]))[0];
  const fields: SignedRequestFields = {
    reseller_id: row.partner_id,
    request_type: row.request_type,
    client_email: row.client_email,
    client_name: row.client_name,
    kyc_session_id: row.kyc_session_id,
    payment_id: row.payment_id,
    signed_contract_ids: row.signed_contract_ids,
  };
  return signHex(keys.secret, approvalPayload(requestId, fields, row.reseller_signature, adminEmail));
}

export type Params<M extends MethodName> = MethodMap[M]["params"];
