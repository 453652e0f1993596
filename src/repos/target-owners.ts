import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlRows } from "../db/sql.ts";

/**
 * Who owns an audit target, by target type: a query answering the owner pair(s) (user_id, partner_id) of the
 * record a target_ref names, across the tables audit rows point at. Later issues add their record types.
 */
/**
 * Company records (issue 16, docs/decisions.md "Company status lifecycle"): the owners of the companies `companies`
 * (a select answering company ids) are the company's owner pair and the owners of the residents holding a current
 * `director` or `founder` role in it (role windows read against the database clock, as the owner lookup takes no
 * clock). Shareholders and members hold no such right.
 */
function companyOwners(companies: string): string {
  return `select c.user_id, c.partner_id from "zone_company" c where c.company_id in (${companies})
          union all
          select r.user_id, r.partner_id from "company_role" cr
            join "digital_resident" r on r.resident_id = cr.subject_id
            where cr.company_id in (${companies}) and cr.role in ('director', 'founder')
              and cr.valid_from <= current_timestamp and (cr.valid_to is null or cr.valid_to > current_timestamp)
              and r.user_id is not null`;
}

/** The owner pairs of the residents `residents` (a select answering formatted resident ids) that have a user. */
function residentOwner(residents: string): string {
  return `select r.user_id, r.partner_id from "digital_resident" r
          where r.resident_id in (${residents}) and r.user_id is not null`;
}

const OWNER_QUERIES: Record<string, string> = {
  api_key: `select user_id, partner_id from "api_key" where sid = ?`,
  // A company by its formatted id or its sid.
  company: companyOwners(`select company_id from "zone_company" where company_id = ? or sid = ?`),
  // A role row (by its sid): the company's owners, and the owner of the resident holding it (its own appointment).
  company_role: `${companyOwners(`select company_id from "company_role" where sid = ?`)}
    union all
    select r.user_id, r.partner_id from "company_role" cr
      join "digital_resident" r on r.resident_id = cr.subject_id where cr.sid = ? and r.user_id is not null`,
  // A company contract (by its sid); registration contracts have no owner (their signers read their own rows
  // through list_for_subject).
  contract: companyOwners(`select fzc_id from "contract" where sid = ?`),
  // Governance (issue 17), each by its sid: the company's owners (owner pair, current directors and founders), and
  // the owners of the residents the row is about: the disciplined member of a governance action, both parties of a
  // share transfer, the holder of a signing authority.
  governance_action: `${companyOwners(`select company_id from "governance_action" where sid = ?`)}
    union all
    ${residentOwner(`select subject_resident_id from "governance_action" where sid = ?`)}`,
  share_transfer: `${companyOwners(`select company_id from "share_transfer" where sid = ?`)}
    union all
    ${residentOwner(`select from_resident_id from "share_transfer" where sid = ? union all select to_resident_id from "share_transfer" where sid = ?`)}`,
  signing_authority: `${companyOwners(`select company_id from "signing_authority" where sid = ?`)}
    union all
    ${residentOwner(`select resident_id from "signing_authority" where sid = ?`)}`,
  business_document: companyOwners(`select company_id from "business_document" where sid = ?`),
  mcp_approval: `select user_id, null as partner_id from "mcp_approval" where sid = ?`,
  // KYC (issue 14): a session and its personal data belong to the resident's owner pair (the session's user for a
  // partner's resident that has no user); an artifact to its partner, whose reseller keys act as the wallet user.
  kyc_session: `select s.user_id, r.partner_id from "kyc_session" s
                  left join "digital_resident" r on r.resident_id = s.resident_id where s.sid = ?`,
  kyc_personal_data: `select coalesce(r.user_id, p.wallet_user_id) as user_id, r.partner_id from "digital_resident" r
                        left join "partner_configuration" p on p.sid = r.partner_id where r.resident_id = ?`,
  kyc_artifact: `select p.wallet_user_id as user_id, a.partner_id from "kyc_artifact_attestation" a
                   join "partner_configuration" p on p.sid = a.partner_id where a.sid = ?`,
  // Invoices (issue 15): the sending user, and for a company's invoice its owner and its current directors and
  // founders (each as its resident's owner pair). Role windows are read against the database clock.
  invoice: `select i.sender_user_id as user_id, u.partner_id from "zone_invoice" i
              join "user" u on u.sid = i.sender_user_id where i.sid = ?
            union all
            select c.user_id, c.partner_id from "zone_invoice" i
              join "zone_company" c on c.company_id = i.fzc_id where i.sid = ?
            union all
            select r.user_id, r.partner_id from "zone_invoice" i
              join "company_role" cr on cr.company_id = i.fzc_id and cr.role in ('director', 'founder')
                and cr.valid_from <= current_timestamp and (cr.valid_to is null or cr.valid_to > current_timestamp)
              join "digital_resident" r on r.resident_id = cr.subject_id
              where i.sid = ? and r.user_id is not null`,
  ai_call: `select user_id, null as partner_id from "credit_transaction" where external_call_id = ?`,
  // A reseller request belongs to its partner: the pair (the partner's wallet user, partner_id) its reseller keys carry.
  registration_request: `select p.wallet_user_id as user_id, r.partner_id from "registration_request" r
    join "partner_configuration" p on p.sid = r.partner_id where r.sid = ?`,
  // Credit ledger (issue 15): a wallet is named by its user's id (it may not exist yet when a grant is denied).
  wallet: `select sid as user_id, null as partner_id from "user" where sid = ?`,
  // Renewals (issue 15): renew_subscription names the paying user's id; a partner's wallet user is owned with its
  // partner (the pair its reseller keys carry). Company renewals are audited under `company`.
  subscription: `select sid as user_id, partner_id from "user" where sid = ?`,
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
