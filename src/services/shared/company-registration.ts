import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { ZoneCompanyRow } from "../../../generated/entities.ts";
import type { Address, CompanySubscriptionPlan, CompanyType, ShareholderData } from "../../../generated/types.ts";
import {
  capTable,
  companyName,
  firstPeriod,
  pricedHolderCount,
  pricingSnapshot,
  type RegistrationPrice,
  registrationPrice,
  registrationRoles,
  votingModelOf,
} from "../../domain/company-registration.ts";
import { roleWriter } from "../../domain/company-roles.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { toCents } from "../../domain/money.ts";
import { isRefusal, type Refusal, refuse } from "../../domain/refusal.ts";
import { liveNameTaken } from "../../repos/companies.ts";
import { openRole } from "../../repos/company-roles.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { postDebit } from "../credit-service/common.ts";
import { createCompanyRow, type NewCompany } from "./new-company.ts";

/** Profile fields a registration may set besides the required ones (absent: the row's defaults). */
export type RegistrationProfile = Partial<
  Pick<
    NewCompany,
    | "description"
    | "voting_model"
    | "auto_renewal"
    | "email"
    | "phone"
    | "website"
    | "logo_url"
    | "industry"
    | "tax_id"
    | "crypto_wallets"
    | "due_process_executors"
  >
>;

/**
 * One registration of a company or cooperative, whoever asks for it (companyservice.create,
 * entitydraftservice.pay_and_activate, an approved company registration request).
 */
export interface CompanyRegistration {
  /**
   * The ownership pair, and the canonical owner resident when the owner is not the resident of `user_id` (a
   * partner's wallet user owning a company, a resident other than the user's own); null otherwise.
   */
  owner: { user_id: string; partner_id: string | null; owner_resident_id: string | null };
  /**
   * Who pays: `wallet_user_id`, whose credit wallet is debited the registration total (setup fee after discounts and
   * the first period) through postDebit; or `payment_id`, a payment the caller has already checked is confirmed for
   * this registration (nothing is debited; the id is only recorded by the caller).
   */
  payer: { wallet_user_id: string } | { payment_id: string };
  company: { name: string; company_type: CompanyType; address: Address; profile?: RegistrationProfile };
  plan: CompanySubscriptionPlan;
  /** Resident who becomes `founder` (null: none; the owner user counts as founder by ownership). */
  founder_resident_id: string | null;
  /**
   * The cap table: each row's `resident_id` is the holder's subject id (a resident, or a company for a corporate
   * holder) and gets a `shareholder` role (`founding_member` in a cooperative; `director` for a row whose role is
   * director); a row with `resident_id` null is kept in the cap table without a role row.
   */
  holders: readonly ShareholderData[];
  /** Residents who become `director`. */
  director_resident_ids?: readonly string[];
  /** The formation draft the company is activated from. */
  draft_id?: string | null;
  /** The acting resident recorded as the roles' `created_by`; null: none acts, the company's own id (`roleWriter`). */
  created_by: string | null;
}

export type RegistrationRefusal = Refusal<"InsufficientFunds" | "AlreadyExists" | "InvalidInput">;

export interface Registered {
  company: ZoneCompanyRow;
  pricing: RegistrationPrice;
}

/**
 * Registers a company in the call's transaction: checks the name and cap table, prices the registration with
 * PricingService's rules (type, priced holders, plan, early bird decided by the server), debits the payer's wallet
 * (reference `company`, the new company's sid), inserts the company `active` with the pricing snapshot and the first
 * subscription period, and opens the founder, holder and director roles from now.
 *
 * Refusals are values; the caller maps them to its own error type and throws. A refusal other than AlreadyExists
 * from the insert comes before any write; AlreadyExists raised by the unique index (a concurrent registration of the
 * same name) leaves the transaction unusable on PostgreSQL, so the caller must throw, never continue.
 */
export async function registerCompany(
  ctx: RpcContext,
  reg: CompanyRegistration,
): Promise<Registered | RegistrationRefusal> {
  const now = ctx.now();
  const name = companyName(reg.company.name);
  if (isRefusal(name)) return name;
  const type = reg.company.company_type;
  const table = capTable(type, reg.holders);
  if (isRefusal(table)) return table;
  const pricing = registrationPrice(type, pricedHolderCount(table), reg.plan, now);
  if (isRefusal(pricing)) return pricing;
  const taken = refuse("AlreadyExists", "a registered company already bears this name", { field: "name" });
  if (await liveNameTaken(ctx.em, name)) return taken;

  const sid = uuidv7(now);
  if ("wallet_user_id" in reg.payer) {
    const debit = await postDebit(ctx, {
      userId: reg.payer.wallet_user_id,
      amount: toCents(pricing.total_due),
      description: `Company registration: ${name} (${type}, ${reg.plan})`,
      referenceType: "company",
      referenceId: sid,
    });
    if (debit === null) {
      return refuse("InsufficientFunds", "the credit wallet does not cover the registration", {
        required: pricing.total_due,
        currency: pricing.currency,
      });
    }
  }

  const period = firstPeriod(reg.plan, now);
  const profile = reg.company.profile ?? {};
  let company: ZoneCompanyRow;
  try {
    company = await createCompanyRow(ctx, {
      ...profile,
      sid,
      user_id: reg.owner.user_id,
      partner_id: reg.owner.partner_id,
      owner_resident_id: reg.owner.owner_resident_id,
      name,
      company_type: type,
      address: reg.company.address,
      voting_model: votingModelOf(type, profile.voting_model),
      shareholders: table,
      status: "active",
      subscription_plan: reg.plan,
      subscription_start_date: period.start,
      subscription_end_date: period.end,
      ...pricingSnapshot(pricing),
      draft_id: reg.draft_id ?? null,
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) return taken;
    throw err;
  }

  for (const role of registrationRoles(type, reg.founder_resident_id, table, reg.director_resident_ids ?? [])) {
    await openRole(
      ctx.em,
      {
        companyId: company.company_id,
        subjectId: role.subjectId,
        role: role.role,
        classificationScope: [role.role],
        validFrom: now,
        createdBy: roleWriter(reg.created_by, company.company_id),
      },
      now,
    );
  }
  return { company, pricing };
}
