import type { CompanyServiceHandlers } from "../../../generated/handlers/index.ts";
import type { Address, CreateCompanyData } from "../../../generated/types.ts";
import { executorsRefusal, profileChanges } from "../../domain/company-profile.ts";
import { isCoopType, resellerCreationRefusal } from "../../domain/company-registration.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { findKeyCompanyCreation } from "../../repos/api-keys.ts";
import { holdsActiveProxy } from "../../repos/company-access.ts";
import { findOwnResident, ownedResidentIdsOf } from "../../repos/digital-residents.ts";
import { findPartner } from "../../repos/partners.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { Caller, RpcContext } from "../../rpc/context.ts";
import { type RegistrationProfile, registerCompany } from "../shared/company-registration.ts";
import { companyError, refused, toCompanyResult } from "./common.ts";

type Handlers = CompanyServiceHandlers<RpcContext>;

const PROFILE_FIELDS = [
  "description",
  "voting_model",
  "auto_renewal",
  "email",
  "phone",
  "website",
  "logo_url",
  "industry",
  "tax_id",
  "crypto_wallets",
  "due_process_executors",
] as const;

/** The optional fields given, the editable ones checked and stored as companyservice.update stores them. */
function profileOf(data: CreateCompanyData): { profile: RegistrationProfile; address: Address } {
  const given: Record<string, unknown> = {};
  for (const field of PROFILE_FIELDS) if (data[field] !== undefined) given[field] = data[field];
  const checked = profileChanges({ ...given, description: data.description, address: data.address });
  if (isRefusal(checked)) throw refused(checked);
  const { address, ...profile } = { ...given, ...checked };
  return { profile: profile as RegistrationProfile, address: address ?? data.address };
}

/** A reseller key may create only with allow_company_creation, for its partner, as the partner's wallet user. */
async function checkReseller(ctx: RpcContext, caller: Caller): Promise<void> {
  if (caller.partnerId === null) return;
  const key = caller.apiKeyId ? await findKeyCompanyCreation(ctx.em, caller.apiKeyId) : null;
  const partner = await findPartner(ctx.em, caller.partnerId);
  const refusal = resellerCreationRefusal(key, partner, caller);
  if (refusal) throw refused(refusal);
}

/**
 * The founder (owner) resident and who may be a holder: the caller's residents, and residents they act for through
 * an effective Proxy. `owner_resident_id` must be one the caller owns; without it a personal caller's own resident
 * founds the company, and a reseller key's company has no founder row (its wallet user owns it).
 */
async function founderOf(ctx: RpcContext, caller: Caller, data: CreateCompanyData, owned: string[]) {
  const own = await findOwnResident(ctx.em, caller);
  const asked = data.owner_resident_id ?? null;
  if (asked !== null && !owned.includes(asked)) {
    throw companyError("Forbidden", "owner_resident_id must be a resident you own", { field: "owner_resident_id" });
  }
  const founder = asked ?? (caller.partnerId === null ? (own?.resident_id ?? null) : null);
  if (founder === null && caller.partnerId === null) {
    throw companyError("NotFound", "resident not found: create your resident before registering a company");
  }
  return { founder, ownerResidentId: founder !== null && founder !== own?.resident_id ? founder : null };
}

async function checkHolders(ctx: RpcContext, data: CreateCompanyData, owned: string[]): Promise<void> {
  for (const [i, holder] of data.shareholders.entries()) {
    const id = holder.resident_id;
    if (id === null) {
      throw companyError("InvalidInput", "every holder needs its resident_id", { field: `shareholders[${i}]` });
    }
    if (owned.includes(id)) continue;
    if (owned.length > 0 && (await holdsActiveProxy(ctx.em, id, owned, ctx.now()))) continue;
    throw companyError(
      "Forbidden",
      "every holder must be a resident you own or act for; form companies with other holders through entitydraftservice",
      { field: `shareholders[${i}]`, resident_id: id },
    );
  }
}

/** companyservice.create: a direct registration paid from the caller's wallet (src/services/shared/company-registration.ts). */
export const create: Handlers["create"] = async (ctx, { user_id, data }) => {
  const caller = requireCaller(ctx);
  await checkReseller(ctx, caller);
  const notCoop = executorsRefusal(isCoopType(data.company_type), data.due_process_executors);
  if (notCoop) throw refused(notCoop);
  const { profile, address } = profileOf(data);
  const owned = await ownedResidentIdsOf(ctx.em, caller);
  const { founder, ownerResidentId } = await founderOf(ctx, caller, data, owned);
  await checkHolders(ctx, data, owned);
  const registered = await registerCompany(ctx, {
    owner: { user_id, partner_id: caller.partnerId, owner_resident_id: ownerResidentId },
    payer: { wallet_user_id: user_id },
    company: { name: data.name, company_type: data.company_type, address, profile },
    plan: data.subscription_plan,
    founder_resident_id: founder,
    holders: data.shareholders,
    created_by: founder,
  });
  if (isRefusal(registered)) throw refused(registered);
  return toCompanyResult(registered.company, ctx.now());
};
