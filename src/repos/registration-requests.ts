import type { EntityManager } from "@mikro-orm/postgresql";
import {
  ContractSignatureEntity,
  type ContractSignatureRow,
  DigitalResidentEntity,
  type KycArtifactAttestationRow,
  type KycArtifactPayloadRow,
  KycSessionEntity,
  type KycSessionRow,
  PaymentEntity,
  type PaymentRow,
  RegistrationRequestEntity,
  type RegistrationRequestRow,
} from "../../generated/entities.ts";
import type { RegistrationRequestStatus, RegistrationRequestType } from "../../generated/types.ts";
import { countRows, dateOf, type FromSql, sqlRows } from "../db/sql.ts";

/**
 * The RegistrationRequest table, and the reads of the records a request links (KYC session, payment, contract
 * signatures, registration contracts, KYC artifacts) that partner submission and administrator review need; the
 * services owning those tables may take these reads over.
 */

/** Rows are read outside the identity map: state moves are conditional updates, and the row read is only mapped. */
export function findRequest(em: EntityManager, requestId: string): Promise<RegistrationRequestRow | null> {
  return em.findOne(RegistrationRequestEntity, { sid: requestId }, { disableIdentityMap: true });
}

/** A request of this partner, or null (another partner's request is as unknown as a missing one). */
export function findPartnerRequest(
  em: EntityManager,
  requestId: string,
  partnerId: string,
): Promise<RegistrationRequestRow | null> {
  return em.findOne(RegistrationRequestEntity, { sid: requestId, partner_id: partnerId }, { disableIdentityMap: true });
}

/** Inserted at once, so the open-request unique index refuses a concurrent duplicate here, where it is mapped. */
export async function insertRequest(em: EntityManager, row: RegistrationRequestRow): Promise<RegistrationRequestRow> {
  await em.insert(RegistrationRequestEntity, row);
  return row;
}

/** Whether the partner has another open request (pending, under_review, needs_info) for the email and type. */
export async function openRequestExists(
  em: EntityManager,
  partnerId: string,
  clientEmail: string,
  requestType: RegistrationRequestType,
  exceptRequestId: string | null,
): Promise<boolean> {
  const n = await em.count(RegistrationRequestEntity, {
    partner_id: partnerId,
    client_email: clientEmail,
    request_type: requestType,
    status: { $in: ["pending", "under_review", "needs_info"] },
    ...(exceptRequestId ? { sid: { $ne: exceptRequestId } } : {}),
  });
  return n > 0;
}

export type RequestChanges = Partial<
  Pick<
    RegistrationRequestRow,
    | "client_email"
    | "client_name"
    | "kyc_session_id"
    | "payment_id"
    | "signed_contract_ids"
    | "reviewed_by"
    | "reviewed_at"
    | "admin_signature"
    | "rejection_reason"
    | "info_request_message"
    | "created_entity_id"
  >
> & { status: RegistrationRequestStatus; updated_at: Date };

/** The state move `from` -> changes.status, only if the request is still in `from`: 0 means someone moved it first. */
export function moveRequest(
  em: EntityManager,
  requestId: string,
  from: RegistrationRequestStatus,
  changes: RequestChanges,
): Promise<number> {
  return em.nativeUpdate(RegistrationRequestEntity, { sid: requestId, status: from }, changes);
}

/** Sets the entity an approval created (the request is approved already, in this transaction). */
export async function setCreatedEntity(em: EntityManager, requestId: string, entityId: string): Promise<void> {
  await em.nativeUpdate(RegistrationRequestEntity, { sid: requestId }, { created_entity_id: entityId });
}

/** The partner's `limit` newest requests. */
export function newestPartnerRequests(
  em: EntityManager,
  partnerId: string,
  limit: number,
): Promise<RegistrationRequestRow[]> {
  return em.find(
    RegistrationRequestEntity,
    { partner_id: partnerId },
    { orderBy: { sid: "desc" }, limit, disableIdentityMap: true },
  );
}

/** Every partner's requests, newest first, by page number; with the total. */
export async function requestsPage(
  em: EntityManager,
  status: RegistrationRequestStatus | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: RegistrationRequestRow[]; total: number }> {
  const where = status ? { status } : {};
  const [rows, total] = await em.findAndCount(RegistrationRequestEntity, where, {
    orderBy: { sid: "desc" },
    offset,
    limit,
    disableIdentityMap: true,
  });
  return { rows, total };
}

// ---- Linked records ----

/** The KYC session, when `userId` (the partner's wallet user) started it. */
export function kycSessionOf(em: EntityManager, sessionId: string, userId: string): Promise<KycSessionRow | null> {
  return em.findOne(KycSessionEntity, { sid: sessionId, user_id: userId }, { disableIdentityMap: true });
}

/** The payment, when `userId` (the partner's wallet user) made it. */
export function paymentOf(em: EntityManager, paymentId: string, userId: string): Promise<PaymentRow | null> {
  return em.findOne(PaymentEntity, { sid: paymentId, user_id: userId }, { disableIdentityMap: true });
}

/** The contract signatures among `ids` that `userId` (the partner's wallet user) made. */
export function signaturesOf(
  em: EntityManager,
  ids: readonly string[],
  userId: string,
): Promise<ContractSignatureRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return em.find(ContractSignatureEntity, { sid: { $in: [...ids] }, user_id: userId }, { disableIdentityMap: true });
}

/**
 * Sids of the active registration contracts an entity of this type must sign at creation; for a company request
 * (whose company type the request does not carry) the ones that apply to every company type.
 */
export async function requiredContractIds(em: EntityManager, type: RegistrationRequestType): Promise<string[]> {
  const entityType = type === "company" ? "company" : "resident";
  const rows = await sqlRows<{ sid: string }>(
    em,
    `select sid from "registration_contract" where is_active and ? = any(required_for)
     ${type === "company" ? "and cardinality(company_types) = 0" : ""} order by sid`,
    [entityType],
  );
  return rows.map((r) => r.sid);
}

/** Whether a resident (resident requests) or a company (company requests) already uses the email, any case. */
export async function clientEmailInUse(
  em: EntityManager,
  type: RegistrationRequestType,
  email: string,
): Promise<boolean> {
  const table = type === "company" ? "zone_company" : "digital_resident";
  return (await countRows(em, `select count(*) as n from "${table}" where lower(email) = ?`, [email])) > 0;
}

export type ArtifactSummaryRow = Pick<
  KycArtifactAttestationRow,
  "sid" | "key_id" | "payload_hash" | "encryption_scheme" | "created_at"
> &
  Pick<KycArtifactPayloadRow, "erased_at">;

/** The KYC artifacts attached to a request (attestation metadata and whether the payload was erased), oldest first. */
export async function artifactsOf(em: EntityManager, requestId: string): Promise<ArtifactSummaryRow[]> {
  const rows = await sqlRows<FromSql<ArtifactSummaryRow>>(
    em,
    `select a.sid, a.key_id, a.payload_hash, a.encryption_scheme, a.created_at, p.erased_at
     from "kyc_artifact_attestation" a left join "kyc_artifact_payload" p on p.attestation_sid = a.sid
     where a.request_id = ? order by a.sid`,
    [requestId],
  );
  return rows.map((r) => ({ ...r, created_at: dateOf(r.created_at), erased_at: dateOf(r.erased_at) }));
}

/** The public key of the user's own (not partner-managed) resident: what an administrator's approval is checked with. */
export async function personalResidentKey(em: EntityManager, userId: string): Promise<string | null> {
  const row = await em.findOne(
    DigitalResidentEntity,
    { user_id: userId, partner_id: null },
    { fields: ["public_key"], disableIdentityMap: true },
  );
  return row?.public_key ?? null;
}
