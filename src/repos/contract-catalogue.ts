import type { EntityManager } from "@mikro-orm/postgresql";
import {
  ContractSignatureEntity,
  type ContractSignatureRow,
  ContractTemplateEntity,
  type ContractTemplateRow,
  DigitalResidentEntity,
  type DigitalResidentRow,
  RegistrationContractEntity,
  type RegistrationContractRow,
  ZoneCompanyEntity,
  type ZoneCompanyRow,
} from "../../generated/entities.ts";
import { sqlRows } from "../db/sql.ts";
import type { StoredContract, StoredTemplate, TemplateCatalogueFields } from "../domain/contract-sync.ts";
import type { ContractTemplateFile } from "../domain/contract-templates.ts";
import { uuidv7 } from "../domain/ids.ts";

/** RegistrationContract, ContractTemplate and ContractSignature: the template catalogue and the signatures of it. */

// ---- RegistrationContract ----

/** Every stored version, for the start-up sync. */
export function storedContracts(em: EntityManager): Promise<StoredContract[]> {
  return em.find(
    RegistrationContractEntity,
    {},
    {
      fields: [
        "sid",
        "category_key",
        "version",
        "content_hash",
        "is_active",
        "title",
        "category",
        "required_for",
        "company_types",
        "effective_from",
      ],
      orderBy: { sid: "asc" },
      disableIdentityMap: true,
    },
  );
}

/** Sets is_active on the rows (a conditional update per flag; unchanged rows are not touched). */
export async function setContractsActive(em: EntityManager, sids: readonly string[], active: boolean, now: Date) {
  if (sids.length === 0) return 0;
  return em.nativeUpdate(
    RegistrationContractEntity,
    { sid: { $in: [...sids] }, is_active: !active },
    { is_active: active, updated_at: now },
  );
}

function contractHeader(t: ContractTemplateFile) {
  return {
    title: t.title,
    category: t.category,
    required_for: [...t.requiredFor],
    company_types: [...t.companyTypes],
    effective_from: t.effectiveFrom,
  };
}

export async function insertContractVersion(em: EntityManager, t: ContractTemplateFile, now: Date): Promise<string> {
  const sid = uuidv7(now);
  await em.insert(RegistrationContractEntity, {
    sid,
    category_key: t.key,
    version: t.version,
    content: t.body,
    content_hash: t.contentHash,
    is_active: true,
    ...contractHeader(t),
    created_at: now,
    updated_at: now,
  });
  return sid;
}

export async function refreshContractHeader(em: EntityManager, sid: string, t: ContractTemplateFile, now: Date) {
  await em.nativeUpdate(RegistrationContractEntity, { sid }, { ...contractHeader(t), updated_at: now });
}

/** Active contracts in force at `now` (effective_from absent or past), by category key. */
export function activeContracts(em: EntityManager, now: Date): Promise<RegistrationContractRow[]> {
  return em.find(
    RegistrationContractEntity,
    { is_active: true, $or: [{ effective_from: null }, { effective_from: { $lte: now } }] },
    { orderBy: { category_key: "asc" }, disableIdentityMap: true },
  );
}

/** The active contract of a category key in force at `now`, or null. */
export function activeContractByKey(
  em: EntityManager,
  key: string,
  now: Date,
): Promise<RegistrationContractRow | null> {
  return em.findOne(
    RegistrationContractEntity,
    { category_key: key, is_active: true, $or: [{ effective_from: null }, { effective_from: { $lte: now } }] },
    { disableIdentityMap: true },
  );
}

/** Any stored version by sid (active or not). */
export function findContract(em: EntityManager, sid: string): Promise<RegistrationContractRow | null> {
  return em.findOne(RegistrationContractEntity, { sid }, { disableIdentityMap: true });
}

// ---- ContractTemplate ----

export function storedTemplates(em: EntityManager): Promise<StoredTemplate[]> {
  return em.find(
    ContractTemplateEntity,
    {},
    {
      fields: ["sid", "name", "description", "category", "content"],
      orderBy: { sid: "asc" },
      disableIdentityMap: true,
    },
  );
}

export async function insertTemplate(em: EntityManager, fields: TemplateCatalogueFields, now: Date) {
  await em.insert(ContractTemplateEntity, { sid: uuidv7(now), ...fields, created_at: now, updated_at: now });
}

export async function updateTemplate(em: EntityManager, sid: string, fields: TemplateCatalogueFields, now: Date) {
  await em.nativeUpdate(ContractTemplateEntity, { sid }, { ...fields, updated_at: now });
}

export async function removeTemplates(em: EntityManager, sids: readonly string[]) {
  if (sids.length > 0) await em.nativeDelete(ContractTemplateEntity, { sid: { $in: [...sids] } });
}

/** The catalogue without content, by name. */
export function listTemplateSummaries(
  em: EntityManager,
): Promise<Pick<ContractTemplateRow, "sid" | "name" | "description" | "category" | "updated_at">[]> {
  return em.find(
    ContractTemplateEntity,
    {},
    {
      fields: ["sid", "name", "description", "category", "updated_at"],
      orderBy: { name: "asc", sid: "asc" },
      limit: 1000,
      disableIdentityMap: true,
    },
  );
}

export function findTemplateRow(em: EntityManager, sid: string): Promise<ContractTemplateRow | null> {
  return em.findOne(ContractTemplateEntity, { sid }, { disableIdentityMap: true });
}

// ---- ContractSignature ----

/** The signer identity a repeated signature is matched on (docs/decisions.md "Contracts"). */
export interface SignatureKey {
  userId: string;
  contractId: string;
  entityType: ContractSignatureRow["entity_type"];
  entityId: string;
}

/**
 * Serializes signatures of one contract for one entity (a transaction-scoped advisory lock), so two concurrent
 * signings of the same version give one row.
 */
export async function lockSignature(em: EntityManager, key: SignatureKey): Promise<void> {
  const who = key.entityType === "user" ? key.userId : key.entityId;
  await sqlRows(em, "select pg_advisory_xact_lock(hashtext(?))", [
    `contract_signature:${key.contractId}:${key.entityType}:${who}`,
  ]);
}

/** The signature of this contract version already made for the entity (for `user`: by the same user), or null. */
export function findSignature(
  em: EntityManager,
  key: SignatureKey,
  version: string,
): Promise<ContractSignatureRow | null> {
  return em.findOne(
    ContractSignatureEntity,
    {
      contract_id: key.contractId,
      contract_version: version,
      entity_type: key.entityType,
      entity_id: key.entityId,
      ...(key.entityType === "user" ? { user_id: key.userId } : {}),
    },
    { orderBy: { sid: "asc" }, disableIdentityMap: true },
  );
}

export interface NewSignature extends SignatureKey {
  version: string;
  entityName: string;
  receiptId: string;
  ipAddress: string | null;
}

export function insertSignature(em: EntityManager, s: NewSignature, now: Date): ContractSignatureRow {
  return em.create(ContractSignatureEntity, {
    sid: uuidv7(now),
    user_id: s.userId,
    contract_id: s.contractId,
    contract_version: s.version,
    receipt_id: s.receiptId,
    signed_at: now,
    entity_type: s.entityType,
    entity_name: s.entityName,
    entity_id: s.entityId,
    ip_address: s.ipAddress,
    created_at: now,
    updated_at: now,
  });
}

/** The user's signatures, newest first (at most 1,000). */
export function signaturesOfUser(em: EntityManager, userId: string): Promise<ContractSignatureRow[]> {
  return em.find(
    ContractSignatureEntity,
    { user_id: userId },
    { orderBy: { signed_at: "desc", sid: "desc" }, limit: 1000, disableIdentityMap: true },
  );
}

// ---- the entities a signature may bind (read by sid, as sign_contract names them) ----

export function signerResident(
  em: EntityManager,
  sid: string,
): Promise<Pick<DigitalResidentRow, "resident_id" | "user_id" | "partner_id"> | null> {
  return em.findOne(
    DigitalResidentEntity,
    { sid },
    { fields: ["resident_id", "user_id", "partner_id"], disableIdentityMap: true },
  );
}

export function signerCompany(
  em: EntityManager,
  sid: string,
): Promise<Pick<ZoneCompanyRow, "company_id" | "user_id" | "partner_id" | "status" | "company_type"> | null> {
  return em.findOne(
    ZoneCompanyEntity,
    { sid },
    { fields: ["company_id", "user_id", "partner_id", "status", "company_type"], disableIdentityMap: true },
  );
}
