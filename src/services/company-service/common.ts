import type { ZoneCompanyRow } from "../../../generated/entities.ts";
import type { CompanyResult } from "../../../generated/types.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { subscriptionStatus } from "../../domain/subscriptions.ts";
import { findCompany } from "../../repos/companies.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

export const companyError = errorsFor("CompanyService", "CompanyError");
export const keypairError = errorsFor("CompanyService", "KeypairError");

type CompanyVariant = Parameters<typeof companyError>[0];

/** A rule's refusal as the declared CompanyError variant. */
export function refused(r: Refusal<CompanyVariant>): Error {
  return companyError(r.refusal, r.message, r.details);
}

/** The company the dispatcher's role check already let the caller reach (NotFound if it vanished meanwhile). */
export async function loadCompany(ctx: RpcContext, companyId: string): Promise<ZoneCompanyRow> {
  const row = await findCompany(ctx.em, companyId);
  if (!row) throw companyError.notFound("company");
  return row;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The member view: every public field; never the owner pair, provider references, counter or encrypted key. */
export function toCompanyResult(row: ZoneCompanyRow, now: Date): CompanyResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    external_id: row.external_id,
    name: row.name,
    company_type: row.company_type,
    voting_model: row.voting_model,
    description: row.description,
    registration_number: row.registration_number,
    tax_id: row.tax_id,
    address: row.address,
    shareholders: row.shareholders,
    crypto_wallets: row.crypto_wallets,
    status: row.status,
    owner_resident_id: row.owner_resident_id,
    email: row.email,
    phone: row.phone,
    website: row.website,
    logo_url: row.logo_url,
    industry: row.industry,
    public_key: row.public_key,
    keypair_version: row.keypair_version,
    subscription_plan: row.subscription_plan,
    subscription_start_date: iso(row.subscription_start_date),
    subscription_end_date: iso(row.subscription_end_date),
    subscription_status: subscriptionStatus(row.subscription_end_date, now),
    auto_renewal: row.auto_renewal,
    setup_fee_paid: row.setup_fee_paid,
    monthly_fee_rate: row.monthly_fee_rate,
    shareholder_fee_rate: row.shareholder_fee_rate,
    prepaid_discount_applied: row.prepaid_discount_applied,
    early_bird_applied: row.early_bird_applied,
    draft_id: row.draft_id,
    payment_receiving_enabled: row.payment_receiving_enabled,
    due_process_executors: row.due_process_executors,
    anonymity_enabled: row.anonymity_enabled,
    anonymity_changed_at: iso(row.anonymity_changed_at),
    license: row.license,
    void_reason: row.void_reason,
    voided_at: iso(row.voided_at),
    voided_by: row.voided_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
