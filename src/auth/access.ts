import type { EntityManager } from "@mikro-orm/postgresql";
import type { Caller } from "../rpc/context.ts";

/** Resident ids the caller owns: ownership compares the pair (user_id, partner_id). */
export async function ownedResidentIds(em: EntityManager, caller: Caller): Promise<string[]> {
  const rows = await em.execute<{ resident_id: string }[]>(
    `select resident_id from "digital_resident" where user_id = ? and partner_id is not distinct from ?`,
    [caller.userId, caller.partnerId],
  );
  return rows.map((r) => r.resident_id);
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
  const rows = await em.execute<{ n: string }[]>(
    `select count(*) as n from "proxy"
      where target_dr_id = ? and principal_dr_id in (?) and status = 'active'
        and valid_from <= ? and (valid_to is null or ? < valid_to)`,
    [residentId, owned, now, now],
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

/** The caller's current roles in a company (by formatted company id); the owning user counts as founder. */
export async function companyRoles(
  em: EntityManager,
  caller: Caller,
  companyId: string,
  now: Date,
): Promise<string[] | null> {
  const companies = await em.execute<{ user_id: string; partner_id: string | null }[]>(
    `select user_id, partner_id from "zone_company" where company_id = ? limit 1`,
    [companyId],
  );
  const company = companies[0];
  if (!company) return null;
  const roles = new Set<string>();
  if (company.user_id === caller.userId && company.partner_id === caller.partnerId) roles.add("founder");
  const owned = await ownedResidentIds(em, caller);
  if (owned.length > 0) {
    const rows = await em.execute<{ role: string }[]>(
      `select role from "company_role"
        where company_id = ? and subject_id in (?) and valid_from <= ? and (valid_to is null or valid_to > ?)`,
      [companyId, owned, now, now],
    );
    for (const r of rows) roles.add(r.role);
  }
  return [...roles];
}

/** `company:member` is any current role; other roles must be held (a founder may act as director). */
export function satisfiesCompanyRole(held: string[], required: string): boolean {
  if (required === "member") return held.length > 0;
  if (held.includes(required)) return true;
  return required === "director" && held.includes("founder");
}
