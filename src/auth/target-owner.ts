import type { EntityManager } from "@mikro-orm/postgresql";
import { OWNED_TARGET_TYPES, ownersOf } from "../repos/target-owners.ts";
import type { Caller } from "../rpc/context.ts";

/** Targets that are the user itself (its account, its credit wallet). */
const SELF_TARGETS = new Set(["user", "wallet"]);

async function ownsAs(em: EntityManager, caller: Caller, targetType: string, targetRef: string): Promise<boolean> {
  if (SELF_TARGETS.has(targetType)) return targetRef === caller.userId;
  // Target types without an owner query are visible to administrators only.
  const owners = (await ownersOf(em, targetType, targetRef)) ?? [];
  // Ownership compares the pair, so a personal caller never owns a partner's record and vice versa.
  return owners.some((o) => o.user_id === caller.userId && (o.partner_id ?? null) === caller.partnerId);
}

/**
 * Whether the caller owns the target: under the types its audit rows carry, or when there are no rows yet,
 * under any known type (so the owner gets an empty list and everyone else NotFound, rows or not).
 */
export async function ownsTarget(
  em: EntityManager,
  caller: Caller,
  targetRef: string,
  knownTypes: string[],
): Promise<boolean> {
  const types = knownTypes.length > 0 ? knownTypes : [...SELF_TARGETS, ...OWNED_TARGET_TYPES];
  for (const type of types) if (await ownsAs(em, caller, type, targetRef)) return true;
  return false;
}
