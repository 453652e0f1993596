import type { ProxyRow } from "../../generated/entities.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Proxies (seed 000 "Proxy"): the principal resident may act for the target resident. This is the one place the
 * effectiveness rule is written; the dispatcher's actor binding (src/auth/access.ts `mayActAsResident`, through
 * src/repos/proxies.ts) and the `effective` flag of list_proxies both call it.
 */

export type ProxyWindow = Pick<ProxyRow, "status" | "valid_from" | "valid_to">;

/** Effective only while `active`, `valid_from <= now` and (`valid_to` absent or `now < valid_to`). */
export function isProxyEffective(proxy: ProxyWindow, now: Date): boolean {
  const t = now.getTime();
  return (
    proxy.status === "active" &&
    proxy.valid_from.getTime() <= t &&
    (proxy.valid_to === null || t < proxy.valid_to.getTime())
  );
}

/** A new proxy's residents and window: two different residents, valid_to (exclusive) after valid_from. */
export function proxyShapeRefusal(
  principal: string,
  target: string,
  validFrom: Date,
  validTo: Date | null,
): Refusal<"InvalidInput"> | null {
  if (principal === target) return refuse("InvalidInput", "a resident cannot be its own proxy");
  if (validTo !== null && validTo.getTime() <= validFrom.getTime()) {
    return refuse("InvalidInput", "valid_to must be after valid_from", { field: "valid_to" });
  }
  return null;
}

/** Whether two half-open windows [from, to) share an instant (a null end is open). */
export function windowsOverlap(
  a: Pick<ProxyRow, "valid_from" | "valid_to">,
  b: Pick<ProxyRow, "valid_from" | "valid_to">,
): boolean {
  const aEndsAfterBStarts = a.valid_to === null || a.valid_to.getTime() > b.valid_from.getTime();
  const bEndsAfterAStarts = b.valid_to === null || b.valid_to.getTime() > a.valid_from.getTime();
  return aEndsAfterBStarts && bEndsAfterAStarts;
}

/** An active proxy with the same principal, target and role whose window overlaps makes a new one a duplicate. */
export function duplicateProxyRefusal(
  candidate: Pick<ProxyRow, "valid_from" | "valid_to">,
  sameRole: readonly Pick<ProxyRow, "sid" | "status" | "valid_from" | "valid_to">[],
): Refusal<"AlreadyExists"> | null {
  const clash = sameRole.find((p) => p.status === "active" && windowsOverlap(p, candidate));
  return clash
    ? refuse("AlreadyExists", "an active proxy with this principal, target and role overlaps that window", {
        proxy_id: clash.sid,
      })
    : null;
}
