import { createHash, randomBytes } from "node:crypto";
import * as ed from "@noble/ed25519";
import type { MobilePayWebhookData } from "../../generated/types.ts";
import { sealArtifact } from "../../src/domain/kyc-artifacts.ts";
import { signingKeyPayload } from "../../src/domain/partner-signing-keys.ts";
import { approvalPayload, resellerPayload, type SignedRequestFields } from "../../src/domain/registration-requests.ts";
import { payloadDigest } from "../../src/domain/request-signature.ts";
import { sandboxKycCallback, sandboxKycVerdict } from "../../src/integrations/identity/sandbox-kyc.ts";
import { sandboxPaymentCallback } from "../../src/integrations/payments/sandbox-callbacks.ts";
import { type Client, type RpcReply, type TestApp, type TypedCaller, typedCaller } from "../support/app.ts";

/**
 * What the partner-onboarding journey needs, every step through the public API: the partner's client (its reseller
 * key, its Ed25519 signing keys, its payload signatures), the administrator's resident key, the sandbox payment
 * provider's signed verdict. No SQL, no repository.
 */

ed.hashes.sha512 ??= (m) => new Uint8Array(createHash("sha512").update(m).digest());

export interface SigningKey {
  secret: Uint8Array;
  publicHex: string;
}

export function signingKey(): SigningKey {
  const secret = ed.utils.randomSecretKey();
  return { secret, publicHex: Buffer.from(ed.getPublicKey(secret)).toString("hex") };
}

/** An Ed25519 signature over the SHA-256 of a canonical payload text, lowercase hex. */
export function sign(key: SigningKey, payload: string): string {
  return Buffer.from(ed.sign(payloadDigest(payload), key.secret)).toString("hex");
}

/** A partner as its client software sees it: its ids, its reseller key and the calls made with it. */
export interface PartnerClient extends TypedCaller {
  partnerId: string;
  walletUserId: string;
  keyId: string;
  rpc(method: string, params?: unknown): Promise<RpcReply>;
}

/** apikeyservice.generate with the credentials create_partner showed once. */
export async function resellerKey(
  t: TestApp,
  created: {
    partner_id: string;
    wallet_user_id: string;
    client_id: string;
    client_secret: string;
    access_password: string;
  },
): Promise<PartnerClient> {
  const key = await t.callOk("apikeyservice.generate", {
    client_id: created.client_id,
    client_secret: created.client_secret,
    access_password: created.access_password,
  });
  const rpc = (method: string, params: unknown = {}) => t.rpc(method, params, { "x-api-key": key.api_key });
  return {
    partnerId: created.partner_id,
    walletUserId: created.wallet_user_id,
    keyId: key.key_id,
    rpc,
    ...typedCaller(rpc),
  };
}

/** register_signing_key params: the new key's proof of possession over the key-change payload of `version`. */
export function registration(partnerId: string, version: number, next: SigningKey) {
  const payload = signingKeyPayload(partnerId, version, next.publicHex);
  return { public_key: next.publicHex, proof_signature: sign(next, payload) };
}

/** rotate_signing_key params: the proof, and the current key's consent over the same payload. */
export function rotation(partnerId: string, version: number, next: SigningKey, current: SigningKey) {
  const payload = signingKeyPayload(partnerId, version, next.publicHex);
  return { ...registration(partnerId, version, next), current_key_signature: sign(current, payload) };
}

export interface RequestFields {
  client_email: string;
  client_name: string;
  payment_id?: string;
}

/** submit_registration_request params signed with `key` (the values normalized as the server stores them). */
export function signedRequest(partnerId: string, key: SigningKey, f: RequestFields) {
  const signature = sign(
    key,
    resellerPayload({
      reseller_id: partnerId,
      request_type: "resident",
      client_email: f.client_email.trim().toLowerCase(),
      client_name: f.client_name.trim(),
      kyc_session_id: null,
      payment_id: f.payment_id ?? null,
      signed_contract_ids: [],
    }),
  );
  return {
    request_type: "resident" as const,
    client_email: f.client_email,
    client_name: f.client_name,
    signed_contract_ids: [] as string[],
    ...(f.payment_id ? { payment_id: f.payment_id } : {}),
    reseller_signature: signature,
  };
}

/** The administrator's approval signature over the request as get_registration_details shows it. */
export function approvalSignature(
  key: SigningKey,
  request: Omit<SignedRequestFields, "signed_contract_ids"> & {
    request_id: string;
    signed_contract_ids: readonly string[];
    reseller_signature: string;
  },
  adminEmail: string,
): string {
  const fields: SignedRequestFields = {
    reseller_id: request.reseller_id,
    request_type: request.request_type,
    client_email: request.client_email,
    client_name: request.client_name,
    kyc_session_id: request.kyc_session_id,
    payment_id: request.payment_id,
    signed_contract_ids: [...request.signed_contract_ids],
  };
  return sign(key, approvalPayload(request.request_id, fields, request.reseller_signature, adminEmail));
}

/**
 * The administrator's own resident and its keypair (residentservice.create, keypairservice.store_client_keypair):
 * what approve_registration checks the administrator's signature with.
 */
export async function adminResidentKey(admin: Client): Promise<SigningKey> {
  const resident = await admin.callOk("residentservice.create", {
    user_id: admin.userId,
    data: { email: admin.email, first_name: "Grace", last_name: "Hopper", phone: "+255700000001" },
  });
  const key = signingKey();
  await admin.callOk("keypairservice.store_client_keypair", {
    entity_type: "resident",
    entity_id: resident.resident_id,
    public_key: key.publicHex,
    encrypted_private_key: sealedPrivateKey(),
  });
  return key;
}

/** What a client stores as its sealed private key: an opaque `hex(nonce):hex(ciphertext)` (never the key itself). */
export function sealedPrivateKey(): string {
  return `${randomBytes(12).toString("hex")}:${randomBytes(48).toString("hex")}`;
}

let events = 0;

async function postPaymentVerdict(t: TestApp, orderId: string, amount: number): Promise<void> {
  events += 1;
  const data: MobilePayWebhookData = {
    event_id: `evt-journey-${events}-${randomBytes(4).toString("hex")}`,
    event_type: "payment.updated",
    order_id: orderId,
    status: "succeeded",
    amount,
    currency: "USD",
    occurred_at: t.clock.now().toISOString(),
  };
  const { body, headers } = sandboxPaymentCallback(t.config.webhookSecret, data, t.clock.now());
  const r = await t.post("/rpc", body, headers);
  if (r.error) throw new Error(`payment webhook refused: ${JSON.stringify(r.error)}`);
}

/** The sandbox identity provider's signed verdict for a session (its scan reference ends the kyc_url). */
export async function deliverKycVerdict(t: TestApp, kycUrl: string): Promise<void> {
  events += 1;
  const scanRef = kycUrl.split("/").pop() ?? "";
  const data = sandboxKycVerdict(scanRef, `evt-journey-kyc-${events}`, t.clock.now());
  if (!data) throw new Error(`the sandbox never answers for ${scanRef}`);
  const { body, headers } = sandboxKycCallback(t.config.webhookSecret, data, t.clock.now());
  const r = await t.post("/rpc", body, headers);
  if (r.error) throw new Error(`KYC webhook refused: ${JSON.stringify(r.error)}`);
}

/** A one-year residency of a partner's resident, paid by mobile money and confirmed by the provider's webhook. */
export async function confirmedSubscription(t: TestApp, partner: PartnerClient, residentId: string): Promise<void> {
  const r = await partner.callOk("paymentservice.initiate_mobilepay", {
    entity_id: residentId,
    entity_type: "resident",
    amount: 102,
    currency: "USD",
    description: "Residency",
    payment_purpose: "resident_subscription",
    subscription_plan: "1_year",
  });
  await postPaymentVerdict(t, r.mobilepay_order_id, 102);
}

/** A mobile-money top-up of the partner's wallet, confirmed by the sandbox provider's signed webhook. */
export async function confirmedTopUp(t: TestApp, partner: PartnerClient, amount: number): Promise<string> {
  const topup = await partner.callOk("creditservice.initiate_topup", { amount, provider: "mobilepay" });
  await postPaymentVerdict(t, topup.mobilepay_order_id, amount);
  return topup.payment_id;
}

/** The partner's client seals a KYC document under its artifact key (kycservice.get_artifact_key). */
export async function sealedDocument(partner: PartnerClient, document: object): Promise<string> {
  const key = await partner.callOk("kycservice.get_artifact_key");
  return sealArtifact(Buffer.from(key.artifact_key, "hex"), JSON.stringify(document), randomBytes(12));
}

/** The audit rows of a subject for one method, oldest first (list_for_subject answers newest first). */
export async function auditOf(reader: TypedCaller, subjectId: string, method: string) {
  const rows = await reader.callOk("userauditlogservice.list_for_subject", { subject_id: subjectId, limit: 100 });
  return rows.items.filter((r) => JSON.parse(r.context).method === method).reverse();
}
