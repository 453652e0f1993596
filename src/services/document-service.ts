import type { DocumentSignatureRow } from "../../generated/entities.ts";
import type { DocumentServiceHandlers } from "../../generated/handlers/index.ts";
import type { SignResult } from "../../generated/types.ts";
import { newToken } from "../auth/tokens.ts";
import { accessRefusal } from "../domain/entity-access.ts";
import { uuidv7 } from "../domain/ids.ts";
import { isRefusal } from "../domain/refusal.ts";
import { findRecordedSignature, recordSignature } from "../repos/document-signatures.ts";
import { findEntityKeys, ownResidentKeys } from "../repos/entity-keys.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";
import { entityWithAccess, keysOf } from "./shared/signing/entities.ts";
import { recordedAt } from "./shared/signing/recorded.ts";
import { failureWith, matchingKey, signedInput, toVerifyResult } from "./shared/signing/verify.ts";

/**
 * DocumentService: signatures made on the client over the 32 raw bytes of a document's SHA-256, verified strictly
 * (src/domain/ed25519.ts) with the signer's stored key, recorded with a receipt, and verified later with the key
 * history.
 */

const signError = errorsFor("DocumentService", "SignError");
const verifyError = errorsFor("DocumentService", "VerifyError");
const keypairError = errorsFor("DocumentService", "KeypairError");

/** Receipt ids: 32 random bytes, so nobody can guess another signature's receipt. */
const RECEIPT_PREFIX = "fzrc_";

function toSignResult(row: DocumentSignatureRow): SignResult {
  return {
    signature_id: row.sid,
    receipt_id: row.receipt_id,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    document_type: row.document_type,
    document_hash: row.document_hash,
    signature: row.signature,
    public_key: row.public_key,
    key_version: row.key_version,
    signed_at: row.signed_at.toISOString(),
  };
}

export const documentService: DocumentServiceHandlers<RpcContext> = {
  /**
   * Idempotent: the same signature of the same entity over the same hash answers the first receipt. The dispatcher
   * checked that a signing resident may act (x-acts-as entity_id; a company id names no resident). Who may sign for
   * the entity (a resident's owner; a company's owner, founders and directors) stays here: the target is a resident
   * or a company by entity_type, which x-target cannot name.
   */
  async submitSigned(ctx, { entity_type, entity_id, document_type, document_hash, signature }) {
    const input = signedInput(signature, document_hash);
    if (isRefusal(input)) throw signError(input.refusal, input.message, input.details);
    const found = await entityWithAccess(ctx, entity_type, entity_id);
    if (!found) throw signError.notFound(entity_type);
    const denied = accessRefusal(found.access, "manages", entity_type);
    if (denied) throw signError(denied.refusal, denied.message);
    const { entity } = found;
    const earlier = await findRecordedSignature(ctx.em, entity_type, entity_id, signature);
    if (earlier && earlier.document_hash === document_hash) return toSignResult(earlier);
    if (entity.public_key === null) throw keypairError.notFound("keypair");
    if (failureWith(entity.public_key, input) !== null) {
      throw signError("InvalidSignature", `the signature does not verify with the ${entity_type}'s current key`, {
        key_version: entity.keypair_version,
      });
    }
    const caller = requireCaller(ctx);
    const now = ctx.now();
    const row: Omit<DocumentSignatureRow, "created_at" | "updated_at"> = {
      sid: uuidv7(now),
      user_id: caller.userId,
      partner_id: caller.partnerId,
      entity_type,
      entity_id,
      document_type,
      document_hash,
      signature,
      public_key: entity.public_key,
      key_version: entity.keypair_version,
      receipt_id: newToken(RECEIPT_PREFIX),
      signed_at: now,
    };
    if (await recordSignature(ctx.em, row, now)) return toSignResult({ ...row, created_at: now, updated_at: now });
    // A concurrent submission of the same signature won: its receipt is the receipt.
    const first = await findRecordedSignature(ctx.em, entity_type, entity_id, signature);
    if (!first) throw signError.notFound("signature");
    return toSignResult(first);
  },

  /** The current key first, then the earlier ones newest first; the result names the version that matched. */
  async verify(ctx, { signature, document_hash, signer_id, signer_type }) {
    const input = signedInput(signature, document_hash);
    if (isRefusal(input)) throw verifyError(input.refusal, input.message, input.details);
    const signer = await findEntityKeys(ctx.em, signer_type, signer_id);
    if (!signer) throw verifyError.notFound("signer");
    const keys = await keysOf(ctx, signer);
    const current = keys.filter((k) => k.version === signer.keypair_version && k.public_key === signer.public_key);
    const ordered = [...current, ...keys.filter((k) => !current.includes(k))];
    const outcome = { currentVersion: signer.keypair_version, documentHash: document_hash };
    if (ordered.length === 0) {
      return toVerifyResult(signer, { ...outcome, reason: "no_key", key: null, signedAt: null }, ctx.now());
    }
    const key = matchingKey(ordered, input);
    const signedAt = key ? await recordedAt(ctx, signer, signature, document_hash) : null;
    const reason = key ? null : "bad_signature";
    return toVerifyResult(signer, { ...outcome, reason, key, signedAt }, ctx.now());
  },

  /** The caller's own resident (the pair user_id, partner_id); the dispatcher bound user_id to the caller. */
  async getKeyStatus(ctx, { user_id }) {
    const resident = await ownResidentKeys(ctx.em, user_id, requireCaller(ctx).partnerId);
    if (!resident) throw keypairError.notFound("resident");
    return {
      entity_type: "resident",
      entity_id: resident.entity_id,
      has_keypair: resident.public_key !== null,
      public_key: resident.public_key,
      keypair_version: resident.keypair_version,
      has_encrypted_private_key: resident.encrypted_private_key !== null,
    };
  },
};
