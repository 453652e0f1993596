import { ZoneCompanyEntity, type ZoneCompanyRow } from "../../../generated/entities.ts";
import { companyIdKind, externalId } from "../../domain/formatted-ids.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { nameKey } from "../../domain/name-key.ts";
import { takeCompanyId } from "../../repos/company-ids.ts";
import { takeExternalCounter } from "../../repos/external-ids.ts";
import type { RpcContext } from "../../rpc/context.ts";

/** The fields the server mints or stamps; everything else is the creator's (defaults below). */
type Minted = "sid" | "company_id" | "external_id" | "external_id_counter" | "name_key" | "created_at" | "updated_at";

/**
 * What a new company's creator decides. `owner_resident_id` is set by the caller when the owner is not the resident
 * of `user_id` (a partner's wallet user owning a company for a resident, a formation draft's owner); null otherwise.
 */
export type NewCompany = Pick<ZoneCompanyRow, "user_id" | "partner_id" | "name" | "company_type" | "address"> &
  Partial<Omit<ZoneCompanyRow, Minted | "user_id" | "partner_id" | "name" | "company_type" | "address">> & {
    /** A sid chosen beforehand (a registration references the company in its wallet debit before the insert). */
    sid?: string;
  };

/**
 * Inserts a ZoneCompany in the call's transaction (at once, not at commit): `company_id` from the rolling Counter
 * row `<PREFIX>-<YYYY>-Y` or, for a coop company type, `<PREFIX>-<YYYY>-P` (UTC year of the call;
 * src/repos/company-ids.ts), `registration_number` the same id unless given, `external_id` minted from the global
 * ExternalIdState counter as residents' are, `name_key` the name's nameKey, status `draft` unless the fields say otherwise. Pricing snapshots, roles and payments are the caller's.
 */
export async function createCompanyRow(ctx: RpcContext, fields: NewCompany): Promise<ZoneCompanyRow> {
  const now = ctx.now();
  const prefix = ctx.config.idPrefix;
  const companyId = await takeCompanyId(ctx.em, prefix, now.getUTCFullYear(), companyIdKind(fields.company_type), now);
  const { counter, key } = await takeExternalCounter(ctx.em, now);
  const row: ZoneCompanyRow = {
    venture_creator_id: null,
    owner_resident_id: null,
    voting_model: "standard",
    description: "",
    // The zone registry's registration number is the formatted company id unless the creator sets another.
    registration_number: companyId,
    tax_id: "",
    shareholders: [],
    crypto_wallets: [],
    status: "draft",
    email: null,
    phone: null,
    website: null,
    logo_url: null,
    industry: null,
    public_key: null,
    encrypted_private_key: null,
    keypair_version: 0,
    subscription_plan: null,
    subscription_start_date: null,
    subscription_end_date: null,
    auto_renewal: false,
    setup_fee_paid: 0,
    monthly_fee_rate: 0,
    shareholder_fee_rate: 0,
    prepaid_discount_applied: 0,
    early_bird_applied: false,
    draft_id: null,
    cardpsp_connected_account_id: null,
    mobilepay_merchant_id: null,
    payment_receiving_enabled: false,
    due_process_executors: null,
    anonymity_enabled: false,
    anonymity_changed_at: null,
    license: null,
    void_reason: null,
    voided_at: null,
    voided_by: null,
    ...fields,
    sid: fields.sid ?? uuidv7(now),
    company_id: companyId,
    external_id: externalId(prefix, key, counter),
    external_id_counter: counter,
    name_key: nameKey(fields.name),
    created_at: now,
    updated_at: now,
  };
  await ctx.em.insert(ZoneCompanyEntity, row);
  return row;
}
