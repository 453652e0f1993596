import type { EntityManager } from "@mikro-orm/postgresql";
import {
  KycArtifactAttestationEntity,
  type KycArtifactAttestationRow,
  KycArtifactPayloadEntity,
  type KycArtifactPayloadRow,
  RegistrationRequestEntity,
  type RegistrationRequestRow,
} from "../../generated/entities.ts";

/**
 * The KycArtifactAttestation (immutable: the database refuses updates and deletes) and KycArtifactPayload
 * (erasable) tables, paired 1:1 by `attestation_sid`, and the registration request an artifact belongs to.
 */

/** A registration request of the partner; null for an unknown one or another partner's. */
export function findPartnerRequest(
  em: EntityManager,
  requestId: string,
  partnerId: string,
): Promise<Pick<RegistrationRequestRow, "sid" | "status"> | null> {
  return em.findOne(
    RegistrationRequestEntity,
    { sid: requestId, partner_id: partnerId },
    { fields: ["sid", "status"], disableIdentityMap: true },
  );
}

export async function insertArtifact(
  em: EntityManager,
  attestation: KycArtifactAttestationRow,
  payload: KycArtifactPayloadRow,
): Promise<void> {
  await em.insert(KycArtifactAttestationEntity, attestation);
  await em.insert(KycArtifactPayloadEntity, payload);
}

export interface Artifact {
  attestation: KycArtifactAttestationRow;
  payload: KycArtifactPayloadRow;
}

export async function findArtifact(em: EntityManager, attestationSid: string): Promise<Artifact | null> {
  const attestation = await em.findOne(
    KycArtifactAttestationEntity,
    { sid: attestationSid },
    { disableIdentityMap: true },
  );
  if (!attestation) return null;
  const payload = await em.findOne(
    KycArtifactPayloadEntity,
    { attestation_sid: attestationSid },
    { disableIdentityMap: true },
  );
  return payload ? { attestation, payload } : null;
}

/** Empties a payload not erased yet, keeping the reason; false when it was erased already (the first reason stays). */
export async function erasePayload(
  em: EntityManager,
  attestationSid: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const erased = await em.nativeUpdate(
    KycArtifactPayloadEntity,
    { attestation_sid: attestationSid, erased_at: null },
    { encrypted_payload: "", erased_at: now, erasure_reason: reason, updated_at: now },
  );
  return erased === 1;
}
