import type { KeypairServiceHandlers } from "../../generated/handlers/index.ts";
import { parsePublicKey } from "../domain/ed25519.ts";
import { accessRefusal } from "../domain/entity-access.ts";
import { encryptedPrivateKeyRefusal } from "../domain/keypairs.ts";
import { isRefusal } from "../domain/refusal.ts";
import { findEntityKeys } from "../repos/entity-keys.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";
import { companyKeyStanding } from "./company-service/key-access.ts";
import { entityWithAccess, storeKeypair } from "./shared/signing/entities.ts";
import { recordedAt } from "./shared/signing/recorded.ts";
import { failureWith, signedInput, toVerifyResult } from "./shared/signing/verify.ts";

/**
 * KeypairService: the server stores a client-generated Ed25519 public key and an opaque encrypted private key
 * (never a private key in plain) and verifies signatures with the current key. Storing goes through
 * `storeKeypair`, which keeps the key history.
 */

const keypairError = errorsFor("KeypairService", "KeypairError");
const verifyError = errorsFor("KeypairService", "VerifyError");

export const keypairService: KeypairServiceHandlers<RpcContext> = {
  async storeClientKeypair(ctx, { entity_type, entity_id, public_key, encrypted_private_key }) {
    const key = parsePublicKey(public_key);
    if (isRefusal(key)) throw keypairError(key.refusal, key.message, key.details);
    const blob = encryptedPrivateKeyRefusal(encrypted_private_key, key);
    if (blob) throw keypairError(blob.refusal, blob.message, blob.details);
    const found = await entityWithAccess(ctx, entity_type, entity_id);
    if (!found) throw keypairError.notFound(entity_type);
    const denied = accessRefusal(found.access, "manages", entity_type);
    if (denied) throw keypairError(denied.refusal, denied.message);
    const stored = await storeKeypair(ctx, found.entity, { public_key, encrypted_private_key });
    if (!stored) throw keypairError.notFound(entity_type);
    return {
      entity_type,
      entity_id,
      public_key,
      keypair_version: stored.version,
      replaced: stored.replaced,
      stored_at: stored.storedAt.toISOString(),
    };
  },

  /**
   * A resident's owner only; a company's key by the one company rule (companyKeyStanding, shared with
   * companyservice.get_company_encrypted_key). Anyone else, proxies and administrators included, gets NotFound.
   */
  async getEncryptedPrivateKey(ctx, { entity_type, entity_id }) {
    const found = await entityWithAccess(ctx, entity_type, entity_id);
    const allowed =
      entity_type === "company"
        ? found !== null && (await companyKeyStanding(ctx, entity_id)) === "allowed"
        : found?.access.manages === true;
    if (!found || !allowed) throw keypairError.notFound(entity_type);
    const { public_key, encrypted_private_key, keypair_version } = found.entity;
    if (public_key === null || encrypted_private_key === null) throw keypairError.notFound("keypair");
    return { entity_type, entity_id, public_key, encrypted_private_key, keypair_version };
  },

  /** With the current key only (documentservice.verify also tries the earlier ones). */
  async verifySignature(ctx, { signature, document_hash, signer_id, signer_type }) {
    const input = signedInput(signature, document_hash);
    if (isRefusal(input)) throw verifyError(input.refusal, input.message, input.details);
    const signer = await findEntityKeys(ctx.em, signer_type, signer_id);
    if (!signer) throw verifyError.notFound("signer");
    const outcome = { currentVersion: signer.keypair_version, documentHash: document_hash, signedAt: null };
    if (signer.public_key === null)
      return toVerifyResult(signer, { ...outcome, reason: "no_key", key: null }, ctx.now());
    const key = { public_key: signer.public_key, version: signer.keypair_version };
    const reason = failureWith(signer.public_key, input);
    const signedAt = reason === null ? await recordedAt(ctx, signer, signature, document_hash) : null;
    return toVerifyResult(signer, { ...outcome, reason, key, signedAt }, ctx.now());
  },
};
