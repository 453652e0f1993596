import type { KycServiceHandlers } from "../../../generated/handlers/index.ts";
import type { KycArtifactViewResult } from "../../../generated/types.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { reasonText } from "../../domain/kyc.ts";
import {
  ARTIFACT_SCHEME,
  artifactKey,
  artifactPayloadHash,
  openArtifact,
  parseArtifactPayload,
  schemeRefusal,
} from "../../domain/kyc-artifacts.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { findKeyWithOwnerById } from "../../repos/api-keys.ts";
import {
  type Artifact,
  erasePayload,
  findArtifact,
  findPartnerRequest,
  insertArtifact,
} from "../../repos/kyc-artifacts.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { kycError, refused } from "./common.ts";

type Handlers = KycServiceHandlers<RpcContext>;

/** Registration requests that are decided take no more evidence. */
const DECIDED_REQUESTS = new Set(["approved", "rejected"]);

/** The calling reseller key's partner and key id (x-auth partner guarantees both). */
function partnerCaller(ctx: RpcContext): { partnerId: string; apiKeyId: string } {
  const caller = requireCaller(ctx);
  return { partnerId: caller.partnerId ?? "", apiKeyId: caller.apiKeyId ?? "" };
}

/** Key material of the partner's own key: derived on demand, never stored. */
export const getArtifactKey: Handlers["getArtifactKey"] = async (ctx) => {
  const { partnerId, apiKeyId } = partnerCaller(ctx);
  return {
    partner_id: partnerId,
    key_id: apiKeyId,
    encryption_scheme: ARTIFACT_SCHEME,
    artifact_key: artifactKey(ctx.config.encryptionKey, partnerId, apiKeyId).toString("hex"),
  };
};

/**
 * The attestation and its payload, written together; the payload must open under the artifact key of `key_id`
 * (checked here, plaintext discarded), so every stored artifact can be reviewed. The dispatcher writes the
 * kyc_artifact_submit audit row for the new attestation (the result's sid).
 */
export const submitArtifact: Handlers["submitArtifact"] = async (ctx, params) => {
  const { request_id, key_id, partner_signature, encrypted_payload } = params;
  const { partnerId } = partnerCaller(ctx);
  const request = await findPartnerRequest(ctx.em, request_id, partnerId);
  if (!request) throw kycError.notFound("registration request");
  if (DECIDED_REQUESTS.has(request.status)) {
    throw kycError("InvalidState", `the registration request is ${request.status}`, { status: request.status });
  }
  const scheme = params.encryption_scheme ?? ARTIFACT_SCHEME;
  const badScheme = schemeRefusal(scheme);
  if (badScheme) throw refused(badScheme);
  const ciphertext = parseArtifactPayload(encrypted_payload);
  if (isRefusal(ciphertext)) throw refused(ciphertext);
  const key = await findKeyWithOwnerById(ctx.em, key_id);
  if (!key || key.partner_id !== partnerId) {
    throw kycError("InvalidInput", "key_id must name one of your partner's API keys", { field: "key_id" });
  }
  if (openArtifact(artifactKey(ctx.config.encryptionKey, partnerId, key_id), ciphertext) === null) {
    throw kycError("InvalidInput", "encrypted_payload does not open under the artifact key of key_id", {
      field: "encrypted_payload",
    });
  }
  const now = ctx.now();
  const sid = uuidv7(now);
  const payloadHash = artifactPayloadHash(ciphertext);
  await insertArtifact(
    ctx.em,
    {
      sid,
      request_id,
      partner_id: partnerId,
      partner_signature,
      payload_hash: payloadHash,
      encryption_scheme: scheme,
      key_id,
      created_at: now,
      updated_at: now,
    },
    {
      sid: uuidv7(now),
      attestation_sid: sid,
      encrypted_payload,
      key_id,
      erased_at: null,
      erasure_reason: null,
      created_at: now,
      updated_at: now,
    },
  );
  return {
    sid,
    attestation_id: sid,
    request_id,
    partner_id: partnerId,
    key_id,
    payload_hash: payloadHash,
    encryption_scheme: scheme,
    created_at: now.toISOString(),
  };
};

/** The attestation with the payload decrypted, or the tombstone of an erased payload (never a decryption attempt). */
function toArtifactView(ctx: RpcContext, { attestation, payload }: Artifact): KycArtifactViewResult {
  const base = {
    attestation_id: attestation.sid,
    request_id: attestation.request_id,
    partner_id: attestation.partner_id,
    key_id: attestation.key_id,
    payload_hash: attestation.payload_hash,
    encryption_scheme: attestation.encryption_scheme,
    partner_signature: attestation.partner_signature,
    created_at: attestation.created_at.toISOString(),
  };
  if (payload.erased_at !== null) {
    return {
      ...base,
      erased: true,
      payload: null,
      payload_hash_matches: null,
      erased_at: payload.erased_at.toISOString(),
      erasure_reason: payload.erasure_reason,
    };
  }
  const ciphertext = parseArtifactPayload(payload.encrypted_payload);
  const readable = isRefusal(ciphertext) ? null : ciphertext;
  const key = artifactKey(ctx.config.encryptionKey, attestation.partner_id, attestation.key_id);
  return {
    ...base,
    erased: false,
    payload: readable ? openArtifact(key, readable) : null,
    payload_hash_matches: readable ? artifactPayloadHash(readable) === attestation.payload_hash : false,
    erased_at: null,
    erasure_reason: null,
  };
}

async function loadArtifact(ctx: RpcContext, attestationId: string): Promise<Artifact> {
  const artifact = await findArtifact(ctx.em, attestationId);
  if (!artifact) throw kycError.notFound("KYC artifact");
  return artifact;
}

/** Administrators only; the dispatcher writes the kyc_artifact_view audit row (also for a tombstone or a refusal). */
export const viewArtifact: Handlers["viewArtifact"] = async (ctx, { attestation_id }) =>
  toArtifactView(ctx, await loadArtifact(ctx, attestation_id));

/** The payload is emptied once, keeping the reason; the attestation never changes. */
export const eraseArtifact: Handlers["eraseArtifact"] = async (ctx, { attestation_id, reason }) => {
  const artifact = await loadArtifact(ctx, attestation_id);
  const text = reasonText(reason);
  if (isRefusal(text)) throw refused(text);
  const now = ctx.now();
  const alreadyErased = () =>
    kycError("InvalidState", "the payload is erased already", {
      erased_at: artifact.payload.erased_at?.toISOString() ?? null,
    });
  if (artifact.payload.erased_at !== null) throw alreadyErased();
  if (!(await erasePayload(ctx.em, attestation_id, text, now))) throw alreadyErased();
  recordAdminAction(ctx, {
    action: "erase_kyc_artifact",
    targetType: "kyc_artifact",
    targetId: attestation_id,
    details: { request_id: artifact.attestation.request_id, reason: text },
  });
  return toArtifactView(ctx, {
    attestation: artifact.attestation,
    payload: { ...artifact.payload, encrypted_payload: "", erased_at: now, erasure_reason: text, updated_at: now },
  });
};
