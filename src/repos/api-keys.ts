import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { ApiKeyEntity, type ApiKeyRow, type UserRow } from "../../generated/entities.ts";
import { affected, countRows, dateOf, type FromSql, sqlRows } from "../db/sql.ts";
import { type KeyPolicyColumns, POLICY_COLUMNS } from "../domain/key-policy.ts";

/** The ApiKey table: personal, assistant and reseller keys (only hashes), with their tier policy. */

/** A key with what authenticating it needs from its owner and partner (one query; src/auth/key-cache.ts keeps it). */
export type KeyWithOwner = Pick<
  ApiKeyRow,
  "sid" | "user_id" | "partner_id" | "is_active" | "expires_at" | "mcp_scope" | "last_used_at"
> &
  Pick<UserRow, "email" | "roles" | "is_suspended"> & { partner_active: boolean | null };

/** `last_used_at` is kept to the minute: one write per key per minute at most, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

const WITH_OWNER = `select k.sid, k.user_id, k.partner_id, k.is_active, k.expires_at, k.mcp_scope, k.last_used_at,
         u.email, u.roles, u.is_suspended, p.is_active as partner_active
    from "api_key" k join "user" u on u.sid = k.user_id
    left join "partner_configuration" p on p.sid = k.partner_id`;

const withDates = (row: FromSql<KeyWithOwner>): KeyWithOwner => ({
  ...row,
  expires_at: dateOf(row.expires_at),
  last_used_at: dateOf(row.last_used_at),
});

/** The key an `X-API-Key` stands for (by its SHA-256), with its owner and partner. */
export async function findKeyByHash(em: EntityManager, keyHash: string): Promise<KeyWithOwner | null> {
  const rows = await sqlRows<FromSql<KeyWithOwner>>(em, `${WITH_OWNER} where k.key_hash = ? limit 1`, [keyHash]);
  return rows[0] ? withDates(rows[0]) : null;
}

/** Whether a key's last use is worth stamping now: at most once a minute per key. */
export function lastUseDue(key: Pick<ApiKeyRow, "last_used_at">, now: Date): boolean {
  return key.last_used_at === null || now.getTime() - key.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS;
}

export async function stampLastUsed(em: EntityManager, keyId: string, now: Date): Promise<void> {
  await em.nativeUpdate(ApiKeyEntity, { sid: keyId }, { last_used_at: now });
}

export function insertKey(em: EntityManager, row: RequiredEntityData<ApiKeyRow>): ApiKeyRow {
  return em.create(ApiKeyEntity, row);
}

/** The caller's own personal keys only (not system-minted, not reseller): anything else is "not found". */
const personal = (userId: string) => ({
  user_id: userId,
  partner_id: null,
  prefix: "fz_u_" as const,
  is_system_minted: false,
});

export function findOwnPersonalKey(em: EntityManager, userId: string, keyId: string): Promise<ApiKeyRow | null> {
  return em.findOne(ApiKeyEntity, { sid: keyId, ...personal(userId) });
}

export function listPersonalKeys(em: EntityManager, userId: string): Promise<ApiKeyRow[]> {
  return em.find(ApiKeyEntity, personal(userId), { orderBy: { sid: "desc" } });
}

/** active -> revoked; 0 when it was revoked meanwhile (the race is decided here). */
export function revokeIfActive(em: EntityManager, keyId: string, now: Date): Promise<number> {
  return affected(
    em,
    `update "api_key" set is_active = false, revoked_at = ?, updated_at = ? where sid = ? and is_active`,
    [now, now, keyId],
  );
}

/** When the key was revoked, read fresh (not the unit of work's copy); null when it is not. */
export async function revokedAtOf(em: EntityManager, keyId: string): Promise<Date | null> {
  const row = await em.findOne(ApiKeyEntity, { sid: keyId }, { refresh: true });
  return row?.revoked_at ?? null;
}

/** Changes a key's name or policy while it is usable (active, not expired at `now`); 0 when it no longer is. */
export function updateIfUsable(
  em: EntityManager,
  keyId: string,
  changes: Partial<ApiKeyRow>,
  now: Date,
): Promise<number> {
  return em.nativeUpdate(
    ApiKeyEntity,
    { sid: keyId, is_active: true, $or: [{ expires_at: null }, { expires_at: { $gt: now } }] },
    { ...changes, updated_at: now },
  );
}

/** Revokes the user's active assistant keys (one is re-minted on demand); the keys it revoked. */
export function revokeAssistantKeys(em: EntityManager, userId: string, now: Date): Promise<RevokedKey[]> {
  return sqlRows<RevokedKey>(
    em,
    `update "api_key" set is_active = false, revoked_at = ?, updated_at = ?
      where user_id = ? and is_system_minted and is_active returning sid, user_id`,
    [now, now, userId],
  );
}

/** Revokes every active key of a partner but the newest `keep` (rotation overlap); the revoked keys. */
export function revokePartnerKeysBeyond(
  em: EntityManager,
  partnerId: string,
  keep: number,
  now: Date,
): Promise<RevokedKey[]> {
  return sqlRows<RevokedKey>(
    em,
    `update "api_key" set is_active = false, revoked_at = ?, updated_at = ?
      where sid in (select sid from "api_key" where partner_id = ? and is_active order by sid desc offset ?)
      returning sid, user_id`,
    [now, now, partnerId, keep],
  );
}

/** Applies partner-level flags to the partner's active keys; returns how many changed. */
export function updateActivePartnerKeys(
  em: EntityManager,
  partnerId: string,
  changes: Partial<Pick<ApiKeyRow, "allow_company_creation" | "discount_profile">>,
  now: Date,
): Promise<number> {
  return em.nativeUpdate(ApiKeyEntity, { partner_id: partnerId, is_active: true }, { ...changes, updated_at: now });
}

/** Active, unexpired keys per partner, for all the partners asked about in one query. */
export async function activeKeyCounts(
  em: EntityManager,
  partnerIds: string[],
  now: Date,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(partnerIds.map((id) => [id, 0]));
  if (partnerIds.length === 0) return counts;
  const rows = await sqlRows<{ partner_id: string; n: string }>(
    em,
    `select partner_id, count(*) as n from "api_key"
      where partner_id in (${partnerIds.map(() => "?").join(", ")}) and is_active and (expires_at is null or expires_at > ?)
      group by partner_id`,
    [...partnerIds, now],
  );
  for (const row of rows) counts.set(row.partner_id, Number(row.n));
  return counts;
}

export function activeKeyCount(em: EntityManager, partnerId: string, now: Date): Promise<number> {
  return countRows(
    em,
    `select count(*) as n from "api_key" where partner_id = ? and is_active and (expires_at is null or expires_at > ?)`,
    [partnerId, now],
  );
}

/**
 * A key's policy columns by id (the MCP policy of the moment), read outside the identity map: the call's own
 * handler may load and change the full row.
 */
export function findKeyPolicy(em: EntityManager, keyId: string): Promise<KeyPolicyColumns | null> {
  return em.findOne(ApiKeyEntity, { sid: keyId }, { fields: POLICY_COLUMNS, disableIdentityMap: true });
}

/** A key by id with its owner's identity (the caller an approved call is replayed as). */
export async function findKeyWithOwnerById(em: EntityManager, keyId: string): Promise<KeyWithOwner | null> {
  const rows = await sqlRows<FromSql<KeyWithOwner>>(em, `${WITH_OWNER} where k.sid = ? limit 1`, [keyId]);
  return rows[0] ? withDates(rows[0]) : null;
}

/** A key a revocation ended: its id and its owner (the subject of its revoke_api_key row). */
export interface RevokedKey {
  sid: string;
  user_id: string;
}

/** Revokes every active personal key of a user (reseller keys belong to partners); the keys it revoked. */
export function revokeActiveKeysOfUser(em: EntityManager, userId: string, now: Date): Promise<RevokedKey[]> {
  return sqlRows<RevokedKey>(
    em,
    `update "api_key" set is_active = false, revoked_at = ?, updated_at = ?
      where user_id = ? and partner_id is null and is_active returning sid, user_id`,
    [now, now, userId],
  );
}

/** A key's partner and its copy of the partner's allow_company_creation flag (reseller company creation). */
export function findKeyCompanyCreation(
  em: EntityManager,
  keyId: string,
): Promise<Pick<ApiKeyRow, "user_id" | "partner_id" | "allow_company_creation"> | null> {
  return em.findOne(
    ApiKeyEntity,
    { sid: keyId },
    { fields: ["user_id", "partner_id", "allow_company_creation"], disableIdentityMap: true },
  );
}
