import type { EntityManager } from "@mikro-orm/postgresql";
import { DigitalResidentEntity, ProxyEntity, type ProxyRow } from "../../generated/entities.ts";
import type { ProxyRole } from "../../generated/types.ts";
import { affected, sqlRows } from "../db/sql.ts";
import { isProxyEffective } from "../domain/proxies.ts";

/** The Proxy table: act-as relations between residents (formatted resident ids). */

/** Read outside the identity map: revocation is a conditional update, and the row read is only mapped. */
export function findProxy(em: EntityManager, proxyId: string): Promise<ProxyRow | null> {
  return em.findOne(ProxyEntity, { sid: proxyId }, { disableIdentityMap: true });
}

/**
 * Locks the residents' rows (in a fixed order, so two creations never deadlock) for the rest of the call's
 * transaction and answers the ids that exist: proxies between the same residents are created one at a time, so
 * the overlap check that follows cannot be raced.
 */
export async function lockResidents(em: EntityManager, residentIds: readonly string[]): Promise<string[]> {
  const sorted = [...new Set(residentIds)].sort();
  const rows = await sqlRows<{ resident_id: string }>(
    em,
    `select resident_id from "digital_resident" where resident_id in (${sorted.map(() => "?").join(", ")})
     order by resident_id for update`,
    sorted,
  );
  return rows.map((r) => r.resident_id);
}

/** Whether a resident with this formatted id exists. */
export async function residentExists(em: EntityManager, residentId: string): Promise<boolean> {
  return (await em.count(DigitalResidentEntity, { resident_id: residentId })) > 0;
}

/** Every proxy (any status) from `principal` to `target` in `role`. */
export function proxiesWithRole(
  em: EntityManager,
  principal: string,
  target: string,
  role: ProxyRole,
): Promise<ProxyRow[]> {
  return em.find(ProxyEntity, { principal_dr_id: principal, target_dr_id: target, role });
}

export function insertProxy(em: EntityManager, row: ProxyRow): ProxyRow {
  return em.create(ProxyEntity, row);
}

/** active -> revoked; 0 when it was revoked already (revoking again changes nothing). */
export function revokeActiveProxy(em: EntityManager, proxyId: string, now: Date): Promise<number> {
  return affected(
    em,
    `update "proxy" set status = 'revoked', revoked_at = ?, updated_at = ? where sid = ? and status = 'active'`,
    [now, now, proxyId],
  );
}

/** Proxies in which the resident is principal or target, newest first. */
export function proxiesOfResident(em: EntityManager, residentId: string): Promise<ProxyRow[]> {
  return em.find(
    ProxyEntity,
    { $or: [{ principal_dr_id: residentId }, { target_dr_id: residentId }] },
    { orderBy: { sid: "desc" }, disableIdentityMap: true },
  );
}

/**
 * Whether one of `principals` holds an effective Proxy for `target` at `now` (the dispatcher's actor binding):
 * the rows between them are read and judged by the one effectiveness rule, `isProxyEffective`.
 */
export async function holdsActiveProxy(
  em: EntityManager,
  target: string,
  principals: string[],
  now: Date,
): Promise<boolean> {
  const rows = await em.find(
    ProxyEntity,
    { target_dr_id: target, principal_dr_id: { $in: principals } },
    { fields: ["status", "valid_from", "valid_to"], disableIdentityMap: true },
  );
  return rows.some((p) => isProxyEffective(p, now));
}
