import type { ProxyRow } from "../../generated/entities.ts";
import type { ProxyServiceHandlers } from "../../generated/handlers/index.ts";
import type { ProxyResult, ProxyRole } from "../../generated/types.ts";
import { ownedResidentIds } from "../auth/access.ts";
import { uuidv7 } from "../domain/ids.ts";
import { duplicateProxyRefusal, isProxyEffective, proxyShapeRefusal } from "../domain/proxies.ts";
import { isRefusal, type Refusal, refuse } from "../domain/refusal.ts";
import * as proxies from "../repos/proxies.ts";
import { recordAdminAction } from "../rpc/admin-actions.ts";
import { requireCaller } from "../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

/**
 * ProxyService: administrators create and revoke act-as relations between residents; the owner of a resident (or
 * an administrator) lists the ones it takes part in. Whether a proxy is effective is decided in one place,
 * src/domain/proxies.ts, which the dispatcher's actor binding uses too.
 */

const proxyError = errorsFor("ProxyService", "ProxyError");

export function toProxyResult(row: ProxyRow, now: Date): ProxyResult {
  return {
    sid: row.sid,
    principal_dr_id: row.principal_dr_id,
    target_dr_id: row.target_dr_id,
    role: row.role,
    status: row.status,
    valid_from: row.valid_from.toISOString(),
    valid_to: row.valid_to?.toISOString() ?? null,
    effective: isProxyEffective(row, now),
    created_by: row.created_by,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export interface ProxyGrant {
  principal: string;
  target: string;
  role: ProxyRole;
  validFrom: Date;
  validTo: Date | null;
}

/**
 * Creates an active proxy after the rules (two different existing residents, a window that ends after it starts,
 * no overlapping active proxy with the same principal, target and role), with the residents' rows locked so two
 * grants between them never both pass the overlap check. The caller records its AdminAction.
 */
export async function grantProxy(
  ctx: RpcContext,
  g: ProxyGrant,
): Promise<ProxyRow | Refusal<"InvalidInput" | "NotFound" | "AlreadyExists">> {
  const shape = proxyShapeRefusal(g.principal, g.target, g.validFrom, g.validTo);
  if (shape) return shape;
  const found = await proxies.lockResidents(ctx.em, [g.principal, g.target]);
  const missing = [g.principal, g.target].find((id) => !found.includes(id));
  if (missing !== undefined) return refuse("NotFound", `resident ${missing.slice(0, 64)} not found`);
  const same = await proxies.proxiesWithRole(ctx.em, g.principal, g.target, g.role);
  const duplicate = duplicateProxyRefusal({ valid_from: g.validFrom, valid_to: g.validTo }, same);
  if (duplicate) return duplicate;
  const now = ctx.now();
  return proxies.insertProxy(ctx.em, {
    sid: uuidv7(now),
    principal_dr_id: g.principal,
    target_dr_id: g.target,
    role: g.role,
    status: "active",
    valid_from: g.validFrom,
    valid_to: g.validTo,
    created_by: requireCaller(ctx).email,
    revoked_at: null,
    created_at: now,
    updated_at: now,
  });
}

export const proxyService: ProxyServiceHandlers<RpcContext> = {
  async createProxy(ctx, p) {
    const now = ctx.now();
    const granted = await grantProxy(ctx, {
      principal: p.principal_dr_id,
      target: p.target_dr_id,
      role: p.role,
      validFrom: p.valid_from !== undefined ? new Date(p.valid_from) : now,
      validTo: p.valid_to !== undefined ? new Date(p.valid_to) : null,
    });
    if (isRefusal(granted)) throw proxyError(granted.refusal, granted.message, granted.details);
    recordAdminAction(ctx, {
      action: "create_proxy",
      targetType: "proxy",
      targetId: granted.sid,
      details: {
        principal_dr_id: granted.principal_dr_id,
        target_dr_id: granted.target_dr_id,
        role: granted.role,
        valid_from: granted.valid_from.toISOString(),
        valid_to: granted.valid_to?.toISOString() ?? null,
      },
    });
    return toProxyResult(granted, now);
  },

  /** Idempotent: revoking a revoked proxy changes nothing (and is still recorded). */
  async revokeProxy(ctx, { proxy_id }) {
    const row = await proxies.findProxy(ctx.em, proxy_id);
    if (!row) throw proxyError.notFound("proxy");
    const now = ctx.now();
    const revoked = (await proxies.revokeActiveProxy(ctx.em, row.sid, now)) > 0;
    const after: ProxyRow = revoked ? { ...row, status: "revoked", revoked_at: now, updated_at: now } : row;
    recordAdminAction(ctx, {
      action: "revoke_proxy",
      targetType: "proxy",
      targetId: row.sid,
      details: { already_revoked: !revoked },
    });
    return toProxyResult(after, now);
  },

  /** The resident's owner (the pair user_id, partner_id) or an administrator in a session; others get NotFound. */
  async listProxies(ctx, { resident_id }) {
    const caller = requireCaller(ctx);
    const visible = isAdminSession(caller)
      ? await proxies.residentExists(ctx.em, resident_id)
      : (await ownedResidentIds(ctx.em, caller)).includes(resident_id);
    if (!visible) throw proxyError.notFound("resident");
    const now = ctx.now();
    return { items: (await proxies.proxiesOfResident(ctx.em, resident_id)).map((r) => toProxyResult(r, now)) };
  },
};
