import type { CompanyServiceHandlers } from "../../../generated/handlers/index.ts";
import { parsePublicKey } from "../../domain/ed25519.ts";
import { encryptedPrivateKeyRefusal } from "../../domain/keypairs.ts";
import { isRefusal } from "../../domain/refusal.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { storeKeypair } from "../shared/signing/entities.ts";
import { keypairError } from "./common.ts";
import { companyKeyStanding } from "./key-access.ts";

type Handlers = CompanyServiceHandlers<RpcContext>;

/**
 * company:member lets members through; the key rule (key-access.ts, shared with keypairservice) then admits the
 * owner, current founders and signing-authority holders: other members get Forbidden, outsiders NotFound.
 */
export const getCompanyEncryptedKey: Handlers["getCompanyEncryptedKey"] = async (ctx, { company_id }) => {
  const standing = await companyKeyStanding(ctx, company_id);
  if (standing === "missing" || standing === "outsider") throw keypairError.notFound("company");
  if (standing === "denied") {
    throw keypairError("Forbidden", "only the owner, a founder or a holder of signing authority reads the company key");
  }
  const row = ctx.target.row;
  if (!row.public_key || row.encrypted_private_key === null) throw keypairError.notFound("keypair");
  return {
    entity_type: "company",
    entity_id: row.company_id,
    public_key: row.public_key,
    encrypted_private_key: row.encrypted_private_key,
    keypair_version: row.keypair_version,
  };
};

/**
 * company:founder (the dispatcher). The same checks and history as a resident's key (keypairservice): strict Ed25519
 * public key, an opaque encrypted key that is not the private key in plain; the version increments under a row lock
 * and PublicKeyHistory keeps the replaced key. A suspended or voided company is refused (InvalidState).
 */
export const storeCompanyKeypair: Handlers["storeCompanyKeypair"] = async (
  ctx,
  { company_id, public_key, encrypted_private_key },
) => {
  const key = parsePublicKey(public_key);
  if (isRefusal(key)) throw keypairError(key.refusal, key.message, key.details);
  const blob = encryptedPrivateKeyRefusal(encrypted_private_key, key);
  if (blob) throw keypairError(blob.refusal, blob.message, blob.details);
  const stored = await storeKeypair(
    ctx,
    { entity_type: "company", entity_id: company_id },
    { public_key, encrypted_private_key },
  );
  if (!stored) throw keypairError.notFound("company");
  return {
    entity_type: "company",
    entity_id: company_id,
    public_key,
    keypair_version: stored.version,
    replaced: stored.replaced,
    stored_at: stored.storedAt.toISOString(),
  };
};
