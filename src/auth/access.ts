import type { EntityManager } from "@mikro-orm/postgresql";
import { companyOwner, currentCompanyRoles, holdsActiveProxy } from "../repos/company-access.ts";
import * as residents from "../repos/digital-residents.ts";
import type { Caller } from "../rpc/context.ts";

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

/** `company:member` is any current role; other roles must be held (a founder may act as director). */
export function satisfiesCompanyRole(held: string[], required: string): boolean {
  if (required === "member") return held.length > 0;
  if (held.includes(required)) return true;
  return required === "director" && held.includes("founder");
}
