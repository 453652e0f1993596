import type { EntityType } from "../../../../generated/types.ts";
import { companyRoles } from "../../../auth/access.ts";
import { type CallerFacts, companyAccess, type EntityAccess, residentAccess } from "../../../domain/entity-access.ts";
import { type HeldKey, heldKeys } from "../../../domain/keypairs.ts";
import { holdsActiveProxy } from "../../../repos/company-access.ts";
import { ownedResidentIdsOf } from "../../../repos/digital-residents.ts";
import { type EntityKeys, findEntityKeys, replaceEntityKeys } from "../../../repos/entity-keys.ts";
import { appendKey, closeOpenKey, findKeyVersion, listKeyHistory } from "../../../repos/public-key-history.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../../rpc/context.ts";

/**
 * Residents and companies as signers, shared by KeypairService, DocumentService, PublicKeyHistoryService and
 * VerificationService: the entity with its key columns, what the caller may do with it, its keys over time, and the
 * one way a keypair is stored (so the history is kept whoever stores one).
 */

export function callerFacts(ctx: RpcContext): CallerFacts {
  const caller = requireCaller(ctx);
  return { userId: caller.userId, partnerId: caller.partnerId, admin: isAdminSession(caller) };
}

/** The caller's access to an entity (facts loaded here, decided by src/domain/entity-access.ts). */
export async function accessTo(
  ctx: RpcContext,
  entity: { entity_type: EntityType; entity_id: string; user_id: string | null; partner_id: string | null },
): Promise<EntityAccess> {
  const caller = requireCaller(ctx);
  const facts = callerFacts(ctx);
  const now = ctx.now();
  if (entity.entity_type === "company") {
    return companyAccess(entity, facts, (await companyRoles(ctx.em, caller, entity.entity_id, now)) ?? []);
  }
  const quick = residentAccess(entity, facts, false);
  if (quick.visible) return quick;
  const owned = await ownedResidentIdsOf(ctx.em, caller);
  const proxy = owned.length > 0 && (await holdsActiveProxy(ctx.em, entity.entity_id, owned, now));
  return residentAccess(entity, facts, proxy);
}

/** The entity and the caller's access to it, or null when it does not exist. */
export async function entityWithAccess(
  ctx: RpcContext,
  type: EntityType,
  id: string,
): Promise<{ entity: EntityKeys; access: EntityAccess } | null> {
  const entity = await findEntityKeys(ctx.em, type, id);
  return entity ? { entity, access: await accessTo(ctx, entity) } : null;
}

/** Every key the entity held, newest version first (history rows, and a current key the history lacks). */
export async function keysOf(ctx: RpcContext, entity: EntityKeys): Promise<HeldKey[]> {
  return heldKeys(entity, await listKeyHistory(ctx.em, entity.entity_type, entity.entity_id));
}

/** The key of one version, from the history or, for a key stored before it, the entity row. */
export async function keyOfVersion(ctx: RpcContext, entity: EntityKeys, version: number): Promise<HeldKey | null> {
  const row = await findKeyVersion(ctx.em, entity.entity_type, entity.entity_id, version);
  if (row) return row;
  return heldKeys(entity, []).find((k) => k.version === version) ?? null;
}

export interface StoredKeypair {
  version: number;
  replaced: boolean;
  storedAt: Date;
}

/**
 * Stores a checked keypair: the entity row gets the new pair and the next keypair_version (row-locked), the open
 * history entry is closed and the new key appended. A key stored before the history (no open entry) is appended
 * first, closed now, so verification with history still finds it. Null when the entity vanished meanwhile.
 */
export async function storeKeypair(
  ctx: RpcContext,
  entity: Pick<EntityKeys, "entity_type" | "entity_id">,
  keys: { public_key: string; encrypted_private_key: string },
): Promise<StoredKeypair | null> {
  const { em } = ctx;
  const now = ctx.now();
  const { entity_type, entity_id } = entity;
  const replaced = await replaceEntityKeys(em, entity_type, entity_id, keys, now);
  if (!replaced) return null;
  const { previous } = replaced;
  const closed = await closeOpenKey(em, entity_type, entity_id, now);
  if (
    closed === 0 &&
    previous.public_key !== null &&
    !(await findKeyVersion(em, entity_type, entity_id, previous.keypair_version))
  ) {
    const legacy = { version: previous.keypair_version, public_key: previous.public_key };
    await appendKey(em, { entity_type, entity_id, ...legacy, valid_from: previous.created_at, valid_to: now }, now);
  }
  await appendKey(
    em,
    { entity_type, entity_id, version: replaced.version, public_key: keys.public_key, valid_from: now, valid_to: null },
    now,
  );
  return { version: replaced.version, replaced: previous.public_key !== null, storedAt: now };
}
