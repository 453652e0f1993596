import type { PartnerConfigurationRow, RegistrationRequestRow } from "../../../../generated/entities.ts";
import type {
  RegistrationRequestDetailResult,
  RegistrationRequestResult,
  RegistrationRequestSummary,
} from "../../../../generated/types.ts";
import {
  type PrerequisiteCheck,
  type PrerequisiteFacts,
  prerequisiteChecks,
  type SignedRequestFields,
} from "../../../domain/registration-requests.ts";
import { payloadDigest, type SignatureVerdict, verifyRequestSignature } from "../../../domain/request-signature.ts";
import * as requests from "../../../repos/registration-requests.ts";
import type { RpcContext } from "../../../rpc/context.ts";

/** What both registration-request services share: the signed fields of a row, signature checks, mappers. */

export function signedFieldsOf(row: RegistrationRequestRow): SignedRequestFields {
  return {
    reseller_id: row.partner_id,
    request_type: row.request_type,
    client_email: row.client_email,
    client_name: row.client_name,
    kyc_session_id: row.kyc_session_id,
    payment_id: row.payment_id,
    signed_contract_ids: row.signed_contract_ids,
  };
}

/** The partner's signature over a canonical payload text, checked with its registered signing key. */
export function resellerSignatureVerdict(
  partner: Pick<PartnerConfigurationRow, "signing_public_key">,
  payload: string,
  signature: string,
): SignatureVerdict | "no_signing_key" {
  if (!partner.signing_public_key) return "no_signing_key";
  return verifyRequestSignature(partner.signing_public_key, payloadDigest(payload), signature);
}

export const SIGNATURE_MESSAGES: Record<Exclude<SignatureVerdict, "valid"> | "no_signing_key", string> = {
  no_signing_key:
    "no signing key is registered for the partner (partnerservice.register_signing_key), so its signature cannot be verified",
  malformed_public_key: "the registered signing key is not a 64-hex canonical Ed25519 public key",
  small_order_public_key: "the registered signing key is a small-order point and verifies nothing",
  malformed_signature: "the signature must be 128 lowercase hex characters",
  non_canonical_signature: "the signature is not canonical (S must be below the group order and R a canonical point)",
  bad_signature: "the signature does not verify over the request's canonical payload",
};

/** The facts the prerequisite check judges, read from the request's linked records. */
export async function prerequisiteFacts(
  ctx: RpcContext,
  row: RegistrationRequestRow,
  partner: PartnerConfigurationRow | null,
): Promise<PrerequisiteFacts> {
  const wallet = partner?.wallet_user_id ?? "";
  const kyc = row.kyc_session_id ? await requests.kycSessionOf(ctx.em, row.kyc_session_id, wallet) : null;
  const payment = row.payment_id ? await requests.paymentOf(ctx.em, row.payment_id, wallet) : null;
  const signatures = await requests.signaturesOf(ctx.em, row.signed_contract_ids, wallet);
  const found = new Set(signatures.map((s) => s.sid));
  return {
    requestType: row.request_type,
    kycStatus: row.kyc_session_id === null ? null : (kyc?.status ?? "missing"),
    liveKycArtifacts: (await requests.artifactsOf(ctx.em, row.sid)).filter((a) => a.erased_at === null).length,
    paymentStatus: row.payment_id === null ? null : (payment?.status ?? "missing"),
    unknownSignatures: row.signed_contract_ids.filter((id) => !found.has(id)),
    requiredContracts: await requests.requiredContractIds(ctx.em, row.request_type),
    signedContracts: signatures.map((s) => s.contract_id),
    emailInUse: await requests.clientEmailInUse(ctx.em, row.request_type, row.client_email),
    partnerActive: partner?.is_active ?? false,
    partnerMayCreateCompanies: partner?.allow_company_creation ?? false,
    signaturePresent: row.reseller_signature.length > 0 && row.signed_payload.length > 0,
  };
}

export async function checkPrerequisites(
  ctx: RpcContext,
  row: RegistrationRequestRow,
  partner: PartnerConfigurationRow | null,
): Promise<PrerequisiteCheck[]> {
  return prerequisiteChecks(await prerequisiteFacts(ctx, row, partner));
}

// ---- Mappers ----

export function toRequestSummary(row: RegistrationRequestRow): RegistrationRequestSummary {
  return {
    request_id: row.sid,
    reseller_id: row.partner_id,
    request_type: row.request_type,
    client_email: row.client_email,
    client_name: row.client_name,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toRequestResult(row: RegistrationRequestRow): RegistrationRequestResult {
  return {
    sid: row.sid,
    request_id: row.sid,
    reseller_id: row.partner_id,
    request_type: row.request_type,
    client_email: row.client_email,
    client_name: row.client_name,
    status: row.status,
    kyc_session_id: row.kyc_session_id,
    payment_id: row.payment_id,
    signed_contract_ids: [...row.signed_contract_ids],
    reseller_signature: row.reseller_signature,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toRequestDetail(row: RegistrationRequestRow): RegistrationRequestDetailResult {
  return {
    ...toRequestResult(row),
    info_request_message: row.info_request_message,
    rejection_reason: row.rejection_reason,
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    created_entity_id: row.created_entity_id,
  };
}
