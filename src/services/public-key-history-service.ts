import type { PublicKeyHistoryRow } from "../../generated/entities.ts";
import type { PublicKeyHistoryServiceHandlers } from "../../generated/handlers/index.ts";
import type { EntityType, PublicKeyHistory } from "../../generated/types.ts";
import { parseSignature } from "../domain/ed25519.ts";
import { isRefusal } from "../domain/refusal.ts";
import { findRecordedSignature } from "../repos/document-signatures.ts";
import { findEntityKeys } from "../repos/entity-keys.ts";
import { findKeyVersion } from "../repos/public-key-history.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";
import { entityWithAccess, keyOfVersion, keysOf } from "./shared/signing/entities.ts";
import { failureWith, toVerifyResult } from "./shared/signing/verify.ts";

/**
 * PublicKeyHistoryService: the public keys an entity held (PublicKeyHistory, kept by `storeKeypair`), and
 * re-verification of a recorded signature with the key of its version.
 */

const keypairError = errorsFor("PublicKeyHistoryService", "KeypairError");
const verifyError = errorsFor("PublicKeyHistoryService", "VerifyError");

/** The entity when the caller may read its keys (owner, a resident's proxy, a company member, an administrator). */
async function readableEntity(ctx: RpcContext, type: EntityType, id: string) {
  const found = await entityWithAccess(ctx, type, id);
  if (!found?.access.visible) throw keypairError.notFound(type);
  return found.entity;
}

function toHistoryRecord(row: PublicKeyHistoryRow): PublicKeyHistory {
  return {
    sid: row.sid,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    version: row.version,
    public_key: row.public_key,
    valid_from: row.valid_from.toISOString(),
    valid_to: row.valid_to?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const publicKeyHistoryService: PublicKeyHistoryServiceHandlers<RpcContext> = {
  async getHistory(ctx, { entity_type, entity_id }) {
    const entity = await readableEntity(ctx, entity_type, entity_id);
    const keys = await keysOf(ctx, entity);
    return {
      entity_type,
      entity_id,
      current_version: entity.keypair_version,
      items: keys.map((k) => ({
        version: k.version,
        public_key: k.public_key,
        valid_from: k.valid_from.toISOString(),
        valid_to: k.valid_to?.toISOString() ?? null,
        is_current: k.version === entity.keypair_version && k.public_key === entity.public_key,
      })),
    };
  },

  /** The history record itself (a key stored before the history has none: NotFound). */
  async getByVersion(ctx, { entity_type, entity_id, version }) {
    await readableEntity(ctx, entity_type, entity_id);
    const row = await findKeyVersion(ctx.em, entity_type, entity_id, version);
    if (!row) throw keypairError.notFound(`key version ${version}`);
    return toHistoryRecord(row);
  },

  /** The recorded signature, over its recorded hash, with the history's key for the version it was signed with. */
  async verifyWithHistory(ctx, { signature, entity_type, entity_id }) {
    const sig = parseSignature(signature);
    if (isRefusal(sig)) throw verifyError(sig.refusal, sig.message, sig.details);
    const entity = await findEntityKeys(ctx.em, entity_type, entity_id);
    if (!entity) throw verifyError.notFound(entity_type);
    const recorded = await findRecordedSignature(ctx.em, entity_type, entity_id, signature);
    if (!recorded) throw verifyError.notFound("recorded signature");
    const key = await keyOfVersion(ctx, entity, recorded.key_version);
    if (!key) throw keypairError.notFound(`key version ${recorded.key_version}`);
    const input = { signature: sig, message: Uint8Array.from(Buffer.from(recorded.document_hash, "hex")) };
    const reason = key.public_key === recorded.public_key ? failureWith(key.public_key, input) : "key_mismatch";
    const outcome = {
      reason,
      key: { public_key: key.public_key, version: key.version },
      currentVersion: entity.keypair_version,
      documentHash: recorded.document_hash,
      signedAt: recorded.signed_at,
    };
    return toVerifyResult(entity, outcome, ctx.now());
  },
};
