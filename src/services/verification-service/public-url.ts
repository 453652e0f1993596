import type { EntityType, PublicVerifyUrlResult } from "../../../generated/types.ts";
import { accessRefusal } from "../../domain/entity-access.ts";
import {
  type PublicVerifyKind,
  publicVerifyKey,
  publicVerifySignatureValid,
  publicVerifyUrl,
} from "../../domain/public-verify-url.ts";
import { findCompanyForVerification, findResidentForVerification } from "../../repos/verification-reads.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { accessTo } from "../shared/signing/entities.ts";

const verificationError = errorsFor("VerificationService", "VerificationError");

const KINDS: Record<PublicVerifyKind, EntityType> = { individual: "resident", company: "company" };

export function isPublicVerifyKind(value: string): value is PublicVerifyKind {
  return Object.hasOwn(KINDS, value);
}

/** The keys derived from the deployment key, once per key (the derivation is deterministic). */
const derived = new WeakMap<Buffer, Buffer>();
function urlKey(encryptionKey: Buffer): Buffer {
  let key = derived.get(encryptionKey);
  if (!key) {
    key = publicVerifyKey(encryptionKey);
    derived.set(encryptionKey, key);
  }
  return key;
}

async function ownedEntity(ctx: RpcContext, kind: PublicVerifyKind, id: string) {
  const type = KINDS[kind];
  const row =
    type === "resident" ? await findResidentForVerification(ctx.em, id) : await findCompanyForVerification(ctx.em, id);
  const entityId = row && ("resident_id" in row ? row.resident_id : row.company_id);
  // Looked up by its formatted id only: the external id is what this operation hands out.
  if (!row || entityId !== id) throw verificationError.notFound(type);
  const access = await accessTo(ctx, {
    entity_type: type,
    entity_id: id,
    user_id: row.user_id,
    partner_id: row.partner_id,
  });
  const denied = accessRefusal(access, "owns", type);
  if (denied) throw verificationError(denied.refusal, denied.message);
  return row;
}

/** Owner only; null URL for a legacy row without an external_id. */
export async function publicVerifyUrlOf(
  ctx: RpcContext,
  { entity_type, id }: { entity_type: string; id: string },
): Promise<PublicVerifyUrlResult> {
  if (!isPublicVerifyKind(entity_type)) {
    throw verificationError("InvalidInput", "entity_type must be individual or company", { field: "entity_type" });
  }
  const row = await ownedEntity(ctx, entity_type, id);
  const externalId = row.external_id;
  const url =
    externalId === null
      ? null
      : publicVerifyUrl(ctx.config.publicBaseUrl, urlKey(ctx.config.encryptionKey), entity_type, externalId);
  return { entity_type, id, external_id: externalId, verify_url: url };
}

/**
 * Whether a public verify URL's parts are one the server issued (GET /verify/<kind>/<external_id>?sig=, served by
 * src/app/public-verify-page.ts): a known kind and the signature of that kind and external id under this
 * deployment's key.
 */
export function signedByServer(encryptionKey: Buffer, kind: string, externalId: string, sig: string): boolean {
  return isPublicVerifyKind(kind) && publicVerifySignatureValid(urlKey(encryptionKey), kind, externalId, sig);
}
