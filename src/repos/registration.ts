import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import {
  CompanyRoleEntity,
  ContractSignatureEntity,
  type ContractSignatureRow,
  type KycSessionRow,
  PaymentEntity,
  type PaymentRow,
  type RegistrationContractRow,
  type RegistrationFlowRow,
  ZoneCompanyEntity,
} from "../../generated/entities.ts";
import type { EntityType, RegistrationFlowStatus } from "../../generated/types.ts";
import { dateOf, sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/**
 * What the registration flow reads from other issues' tables (KYC sessions, payments, registration contracts and
 * their signatures, company roles, companies) and the RegistrationFlow table it keeps. Reads only, except the flow
 * row and the completion of a KYC session by confirm_kyc.
 */

/** The KycSession columns the flow needs (the KYC service owns the table and may add more). */
export type KycSessionFacts = Pick<
  KycSessionRow,
  | "sid"
  | "user_id"
  | "resident_id"
  | "status"
  | "identity_verified"
  | "document_verified"
  | "liveness_verified"
  | "verification_level"
  | "expires_at"
  | "verified_at"
>;

const KYC_COLUMNS = `sid, user_id, resident_id, status, identity_verified, document_verified, liveness_verified,
  verification_level, expires_at, verified_at`;

type RawKyc = Omit<KycSessionFacts, "expires_at" | "verified_at"> & {
  expires_at: Date | string;
  verified_at: Date | string | null;
};

function kycFacts(row: RawKyc): KycSessionFacts {
  return { ...row, expires_at: dateOf(row.expires_at), verified_at: dateOf(row.verified_at) };
}

/** The resident's KYC sessions, newest first (at most 50: a resident has a handful). */
export async function kycSessionsOf(em: EntityManager, residentId: string): Promise<KycSessionFacts[]> {
  const rows = await sqlRows<RawKyc>(
    em,
    `select ${KYC_COLUMNS} from "kyc_session" where resident_id = ? order by sid desc limit 50`,
    [residentId],
  );
  return rows.map(kycFacts);
}

/** One session, locked until the call ends (confirm_kyc: two confirmations of one session take turns). */
export async function lockKycSession(em: EntityManager, sessionId: string): Promise<KycSessionFacts | null> {
  const rows = await sqlRows<RawKyc>(em, `select ${KYC_COLUMNS} from "kyc_session" where sid = ? for update`, [
    sessionId,
  ]);
  const row = rows[0];
  return row ? kycFacts(row) : null;
}

export interface KycOutcome {
  identity_verified: boolean;
  document_verified: boolean;
  liveness_verified: boolean;
  verification_level: string | null;
  verified_at: Date;
}

/** Marks a session completed with the verification outcome, unless it is completed already; rows touched. */
export async function completeKycSession(
  em: EntityManager,
  sessionId: string,
  outcome: KycOutcome,
  now: Date,
): Promise<number> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `update "kyc_session" set status = 'completed', identity_verified = ?, document_verified = ?,
       liveness_verified = ?, verification_level = ?, verified_at = ?, updated_at = ?
     where sid = ? and status <> 'completed' returning sid`,
    [
      outcome.identity_verified,
      outcome.document_verified,
      outcome.liveness_verified,
      outcome.verification_level,
      outcome.verified_at,
      now,
      sessionId,
    ],
  );
  return rows.length;
}

/** Registration payments (purpose `purpose`) of the user (null: anyone's) for one of `entityIds`, newest first. */
export function registrationPayments(
  em: EntityManager,
  userId: string | null,
  purpose: "resident_subscription" | "company_registration",
  entityIds: readonly string[] | null,
): Promise<PaymentRow[]> {
  return em.find(
    PaymentEntity,
    {
      ...(userId !== null ? { user_id: userId } : {}),
      payment_purpose: purpose,
      ...(entityIds !== null ? { entity_id: { $in: [...entityIds] } } : {}),
    },
    { orderBy: { sid: "desc" }, limit: 50, disableIdentityMap: true },
  );
}

/** The active registration contracts that `entityType` must sign, in force at `now`. */
export async function requiredContracts(
  em: EntityManager,
  entityType: EntityType,
  now: Date,
): Promise<Pick<RegistrationContractRow, "sid" | "category_key" | "version">[]> {
  const rows = await sqlRows<Pick<RegistrationContractRow, "sid" | "category_key" | "version">>(
    em,
    `select sid, category_key, version from "registration_contract"
     where is_active and ? = any(required_for) and (effective_from is null or effective_from <= ?)
     order by category_key`,
    [entityType, now],
  );
  return rows;
}

/**
 * The (contract_id, contract_version) pairs the user signed for itself (entity_type user) or anyone signed for the
 * resident (entity_type digital_resident, entity_id its sid). `userId` null (a resident without a user): the latter.
 */
export async function residentSignatures(
  em: EntityManager,
  userId: string | null,
  residentSid: string,
  contractIds: readonly string[],
): Promise<{ contract_id: string; contract_version: string }[]> {
  if (contractIds.length === 0) return [];
  const signers: FilterQuery<ContractSignatureRow>[] = [{ entity_type: "digital_resident", entity_id: residentSid }];
  if (userId !== null) signers.push({ user_id: userId, entity_type: "user", entity_id: "" });
  return em.find(
    ContractSignatureEntity,
    { contract_id: { $in: [...contractIds] }, $or: signers },
    { fields: ["contract_id", "contract_version"], disableIdentityMap: true },
  );
}

/** Whether anything business-relevant hangs on the resident: a company role or a contract signature made for it. */
export async function residentHasHistory(em: EntityManager, residentId: string, residentSid: string) {
  const roles = await em.count(CompanyRoleEntity, { subject_id: residentId });
  if (roles > 0) return "company roles";
  const signatures = await em.count(ContractSignatureEntity, {
    entity_type: "digital_resident",
    entity_id: residentSid,
  });
  return signatures > 0 ? "contract signatures" : null;
}

/** Whether the user owns an active company (personally, not through a partner). */
export async function ownsActiveCompany(em: EntityManager, userId: string): Promise<boolean> {
  return (await em.count(ZoneCompanyEntity, { user_id: userId, partner_id: null, status: "active" })) > 0;
}

export async function findFlow(
  em: EntityManager,
  userId: string,
  entityType: EntityType,
): Promise<Pick<RegistrationFlowRow, "status" | "updated_at"> | null> {
  const rows = await sqlRows<{ status: RegistrationFlowStatus; updated_at: Date | string }>(
    em,
    `select status, updated_at from "registration_flow" where user_id = ? and entity_type = ?`,
    [userId, entityType],
  );
  const row = rows[0];
  return row ? { status: row.status, updated_at: dateOf(row.updated_at) } : null;
}

/** Records the flow's status (one row per user and entity type, made on first use). */
export async function recordFlow(
  em: EntityManager,
  userId: string,
  entityType: EntityType,
  status: RegistrationFlowStatus,
  now: Date,
): Promise<void> {
  await sqlRows(
    em,
    `insert into "registration_flow" (sid, user_id, entity_type, status, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?)
     on conflict (user_id, entity_type) do update set status = excluded.status, updated_at = excluded.updated_at
     returning sid`,
    [uuidv7(now), userId, entityType, status, now, now],
  );
}
