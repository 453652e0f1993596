import type { EntityManager } from "@mikro-orm/postgresql";
import { dateOf, sqlRows } from "../db/sql.ts";
import type { OnboardingFacts } from "../domain/onboarding.ts";

/** What the user has done so far, across users, residents, identity sessions, the wallet and companies. */
export async function onboardingFacts(em: EntityManager, userId: string): Promise<OnboardingFacts> {
  const rows = await sqlRows<{
    email_verified: boolean;
    resident_at: Date | string | null;
    identity_at: Date | string | null;
    funded_at: Date | string | null;
    activated_at: Date | string | null;
    company_at: Date | string | null;
  }>(
    em,
    `select u.email_verified,
       (select min(r.created_at) from "digital_resident" r where r.user_id = u.sid and r.partner_id is null) as resident_at,
       (select min(coalesce(k.verified_at, k.updated_at)) from "kyc_session" k
          where k.user_id = u.sid and k.status = 'completed' and k.identity_verified) as identity_at,
       (select min(x.created_at) from "credit_transaction" x
          where x.user_id = u.sid and x.tx_type in ('top_up', 'bonus')) as funded_at,
       (select min(coalesce(r.subscription_start_date, r.updated_at)) from "digital_resident" r
          where r.user_id = u.sid and r.partner_id is null and r.status <> 'pending') as activated_at,
       (select min(c.created_at) from "zone_company" c where c.user_id = u.sid) as company_at
     from "user" u where u.sid = ?`,
    [userId],
  );
  const r = rows[0];
  if (!r) return { emailVerified: false, doneAt: {} };
  return {
    emailVerified: r.email_verified,
    doneAt: {
      create_resident: dateOf(r.resident_at),
      verify_identity: dateOf(r.identity_at),
      fund_wallet: dateOf(r.funded_at),
      activate_residency: dateOf(r.activated_at),
      register_company: dateOf(r.company_at),
    },
  };
}
