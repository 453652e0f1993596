import type { Client, TestApp } from "../../support/app.ts";
import { insertCompany, member } from "../../support/entities.ts";
import { sql } from "../../support/helpers.ts";

/** An owner (a signed-in user with a personal resident, no role) and its company (extra sets company fields). */
export async function ownedCompany(
  t: TestApp,
  extra: Record<string, unknown> = {},
): Promise<{ owner: Client; ownerResident: string; company: string }> {
  const o = await member(t);
  return { owner: o.client, ownerResident: o.resident, company: await insertCompany(t, o.client.userId, extra) };
}

/** The audit rows of `action` (allowed and denied), oldest first. */
export function auditRows(t: TestApp, action: string) {
  return sql<{ subject_id: string; target_ref: string; target_type: string; allowed: boolean }>(
    t,
    `select subject_id, target_ref, target_type, allowed from user_audit_log where action = ? order by sid`,
    [action],
  );
}

/** What the director and signing-authority operations may write (audit rows aside). */
export async function governanceWrites(t: TestApp, company: string) {
  return {
    roles: await sql(t, `select * from company_role where company_id = ? order by sid`, [company]),
    authorities: await sql(t, `select * from signing_authority where company_id = ? order by sid`, [company]),
  };
}
