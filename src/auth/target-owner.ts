import type { EntityManager } from "@mikro-orm/postgresql";
import type { Caller } from "../rpc/context.ts";

/**
 * Who owns an audit target, by target type: a query answering the owner pair(s) (user_id, partner_id) of the
 * record a target_ref names. Target types not listed here are visible to administrators only. Later issues add
 * their record types.
 */
const OWNER_QUERIES: Record<string, string> = {
  api_key: `select user_id, partner_id from "api_key" where sid = ?`,
  company: `select user_id, partner_id from "zone_company" where company_id = ? or sid = ?`,
  mcp_approval: `select user_id, null as partner_id from "mcp_approval" where sid = ?`,
  kyc_session: `select user_id, null as partner_id from "kyc_session" where sid = ?`,
  invoice: `select sender_user_id as user_id, null as partner_id from "zone_invoice" where sid = ?`,
  ai_call: `select user_id, null as partner_id from "credit_transaction" where external_call_id = ?`,
};

/** Targets that are the user itself (its account, its credit wallet). */
const SELF_TARGETS = new Set(["user", "wallet"]);

async function ownsAs(em: EntityManager, caller: Caller, targetType: string, targetRef: string): Promise<boolean> {
  if (SELF_TARGETS.has(targetType)) return targetRef === caller.userId;
  const sql = OWNER_QUERIES[targetType];
  if (!sql) return false;
  const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => targetRef);
  const owners = await em.execute<{ user_id: string | null; partner_id: string | null }[]>(sql, params);
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
  const types = knownTypes.length > 0 ? knownTypes : [...SELF_TARGETS, ...Object.keys(OWNER_QUERIES)];
  for (const type of types) if (await ownsAs(em, caller, type, targetRef)) return true;
  return false;
}
