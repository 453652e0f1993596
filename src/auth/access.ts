import type { EntityManager } from "@mikro-orm/postgresql";
import { satisfiesCompanyRole } from "../domain/target-access.ts";
import { companyOwner, currentCompanyRoles, holdsActiveProxy } from "../repos/company-access.ts";
import * as residents from "../repos/digital-residents.ts";
import { type Caller, isAdminSession } from "../rpc/context.ts";

/** Resident ids the caller owns: ownership compares the pair (user_id, partner_id). */
export function ownedResidentIds(em: EntityManager, caller: Caller): Promise<string[]> {
  return residents.ownedResidentIds(em, caller.userId, caller.partnerId);
}

/** Whether the caller may act as `residentId`: it owns it, or holds an effective Proxy for it. */
export async function mayActAsResident(
  em: EntityManager,
  caller: Caller,
  residentId: string,
  now: Date,
  allowProxy = true,
): Promise<boolean> {
  const owned = await ownedResidentIds(em, caller);
  if (owned.includes(residentId)) return true;
  if (!allowProxy || owned.length === 0) return false;
  return holdsActiveProxy(em, residentId, owned, now);
}

/** The caller's current roles in a company (by formatted company id); the owning user counts as founder. */
export async function companyRoles(
  em: EntityManager,
  caller: Caller,
  companyId: string,
  now: Date,
): Promise<string[] | null> {
  const company = await companyOwner(em, companyId);
  if (!company) return null;
  const roles = new Set<string>();
  if (company.user_id === caller.userId && company.partner_id === caller.partnerId) roles.add("founder");
  const owned = await ownedResidentIds(em, caller);
  if (owned.length > 0) {
    for (const role of await currentCompanyRoles(em, companyId, owned, now)) roles.add(role);
  }
  return [...roles];
}

export { satisfiesCompanyRole } from "../domain/target-access.ts";

/**
 * The dispatcher's `company:<role>` rule, for handlers that read the company from a record or from a param the
 * dispatcher does not check (docs/authorization.md "handler" rows): "none" when the caller holds no current role
 * (answer NotFound: existence does not leak), "short" when its roles fall short of `required` (Forbidden),
 * "allowed", or "admin" for an administrator's session, which passes as it does at the dispatcher.
 */
export async function companyStanding(
  em: EntityManager,
  caller: Caller,
  companyId: string,
  required: string,
  now: Date,
): Promise<"admin" | "allowed" | "none" | "short"> {
  if (isAdminSession(caller)) return "admin";
  const held = await companyRoles(em, caller, companyId, now);
  if (held === null || held.length === 0) return "none";
  return satisfiesCompanyRole(held, required) ? "allowed" : "short";
}
