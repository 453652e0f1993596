import type { EntityType } from "../../../../generated/types.ts";
import { companyRoles, mayActAsResident, satisfiesCompanyRole } from "../../../auth/access.ts";
import { ownsResident } from "../../../domain/resident-access.ts";
import { findResident } from "../../../repos/digital-residents.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import type { RpcContext } from "../../../rpc/context.ts";

/**
 * The caller's standing towards the owner of treasury accounts (docs/decisions.md "Treasury"):
 * - see: any current member of the owning company; the owning resident's owner or an effective proxy holder.
 * - move (initiate transfers and exchanges, cancel): a current director (or founder) of the company; for a
 *   resident, its owner or an effective proxy holder (the owner then approves what passes the threshold).
 * - manage (create and change accounts of a resident): the owner only (a proxy only sees, as for residents).
 */
export interface Standing {
  see: boolean;
  move: boolean;
  manage: boolean;
}

const NONE: Standing = { see: false, move: false, manage: false };

export async function standingTowards(ctx: RpcContext, ownerType: EntityType, ownerId: string): Promise<Standing> {
  const caller = requireCaller(ctx);
  const now = ctx.now();
  if (ownerType === "company") {
    const held = await companyRoles(ctx.em, caller, ownerId, now);
    if (!held || held.length === 0) return NONE;
    const director = satisfiesCompanyRole(held, "director");
    return { see: true, move: director, manage: director };
  }
  const resident = await findResident(ctx.em, ownerId);
  if (!resident) return NONE;
  const owns = ownsResident(caller, resident);
  const acts = owns || (await mayActAsResident(ctx.em, caller, ownerId, now));
  return { see: acts, move: acts, manage: owns };
}
