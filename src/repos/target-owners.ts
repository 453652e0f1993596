import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlRows } from "../db/sql.ts";

/**
 * Who owns an audit target, by target type: a query answering the owner pair(s) (user_id, partner_id) of the
 * record a target_ref names, across the tables audit rows point at. Later issues add their record types.
 */
const OWNER_QUERIES: Record<string, string> = {
  api_key: `select user_id, partner_id from "api_key" where sid = ?`,
  company: `select user_id, partner_id from "zone_company" where company_id = ? or sid = ?`,
  mcp_approval: `select user_id, null as partner_id from "mcp_approval" where sid = ?`,
  // KYC (issue 14): a session and its personal data belong to the resident's owner pair (the session's user for a
  // partner's resident that has no user); an artifact to its partner, whose reseller keys act as the wallet user.
  kyc_session: `select s.user_id, r.partner_id from "kyc_session" s
                  left join "digital_resident" r on r.resident_id = s.resident_id where s.sid = ?`,
  kyc_personal_data: `select coalesce(r.user_id, p.wallet_user_id) as user_id, r.partner_id from "digital_resident" r
                        left join "partner_configuration" p on p.sid = r.partner_id where r.resident_id = ?`,
  kyc_artifact: `select p.wallet_user_id as user_id, a.partner_id from "kyc_artifact_attestation" a
                   join "partner_configuration" p on p.sid = a.partner_id where a.sid = ?`,
  invoice: `select sender_user_id as user_id, null as partner_id from "zone_invoice" where sid = ?`,
  ai_call: `select user_id, null as partner_id from "credit_transaction" where external_call_id = ?`,
  // A reseller request belongs to its partner: the pair (the partner's wallet user, partner_id) its reseller keys carry.
  registration_request: `select p.wallet_user_id as user_id, r.partner_id from "registration_request" r
    join "partner_configuration" p on p.sid = r.partner_id where r.sid = ?`,
  // Credit ledger (issue 15): a wallet is named by its user's id (it may not exist yet when a grant is denied).
  wallet: `select sid as user_id, null as partner_id from "user" where sid = ?`,
};

export interface OwnerPair {
  user_id: string | null;
  partner_id: string | null;
}

/** The target types whose owners this module can look up. */
export const OWNED_TARGET_TYPES: readonly string[] = Object.keys(OWNER_QUERIES);

/** The owner pairs of the record `targetRef` names under `targetType`; null for a type without an owner query. */
export async function ownersOf(em: EntityManager, targetType: string, targetRef: string): Promise<OwnerPair[] | null> {
  const sql = OWNER_QUERIES[targetType];
  if (!sql) return null;
  const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => targetRef);
  return sqlRows<OwnerPair>(em, sql, params);
}
