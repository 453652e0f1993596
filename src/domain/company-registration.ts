import type {
  CompanyRoleKind,
  CompanySubscriptionPlan,
  CompanyType,
  InvitationRole,
  ShareholderData,
  VotingModel,
} from "../../generated/types.ts";
import { COMPANY_PLANS, companyPricing, EARLY_BIRD, PricingInputError, pricedHolders } from "./company-pricing.ts";
import { nameKey } from "./name-key.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { addMonths } from "./subscriptions.ts";
import { isSingleLine } from "./text-render.ts";
import { CAP_TABLE_UNITS_RULE, isUnitAmount, UNITS_RULE, withinUnitMaximum } from "./units.ts";

/**
 * Rules of registering a company (companyservice.create, entitydraftservice.pay_and_activate, an approved company
 * registration request): the name, the cap table, the price snapshot, the subscription period and the roles the
 * registration writes (docs/decisions.md "Company registration (issue 16)").
 */

export const MAX_COMPANY_NAME = 200;

/** Whether the type is a cooperative (`coop_*`): founding members instead of shareholders, cooperative voting. */
export const isCoopType = (type: CompanyType): boolean => type.startsWith("coop_");

/**
 * The registered name: trimmed, 1 to 200 characters, no control characters, and something visible (a name of
 * invisibles and spaces only has an empty nameKey).
 */
export function companyName(name: string): string | Refusal<"InvalidInput"> {
  const trimmed = name.trim();
  const blank = nameKey(trimmed) === "";
  if (blank || trimmed.length > MAX_COMPANY_NAME || !isSingleLine(trimmed)) {
    return refuse("InvalidInput", `name must be 1 to ${MAX_COMPANY_NAME} printable characters`, { field: "name" });
  }
  return trimmed;
}

/** A cooperative always votes one member one vote; other types vote by units unless `cooperative` is asked. */
export function votingModelOf(type: CompanyType, asked: VotingModel | undefined): VotingModel {
  return isCoopType(type) ? "cooperative" : (asked ?? "standard");
}

/** The early bird applies while the deployment offers it and its end (if any) has not passed: the server decides. */
export function earlyBirdApplies(
  now: Date,
  offer: { available: boolean; ends_at: string | null } = EARLY_BIRD,
): boolean {
  if (!offer.available) return false;
  return offer.ends_at === null || now.getTime() < new Date(offer.ends_at).getTime();
}

/** The role a cap-table row gives: a director row is a director; otherwise shareholder, founding_member in a coop. */
export function holderRole(type: CompanyType, row: Pick<ShareholderData, "role">): InvitationRole {
  if (row.role === "director") return "director";
  return isCoopType(type) ? "founding_member" : "shareholder";
}

/**
 * The cap table as stored: names and emails trimmed, role filled (cooperatives: founding_member with 0 units;
 * others: shareholder with positive units; units as src/domain/units.ts admits them), or the refusal of the first bad row. At least one holder who is not only
 * a director; a resident id at most once.
 */
export function capTable(
  type: CompanyType,
  rows: readonly ShareholderData[],
): ShareholderData[] | Refusal<"InvalidInput"> {
  const coop = isCoopType(type);
  const seen = new Set<string>();
  const out: ShareholderData[] = [];
  for (const [i, row] of rows.entries()) {
    const field = { field: `shareholders[${i}]` };
    const role = holderRole(type, row);
    if (row.name.trim().length === 0) return refuse("InvalidInput", "a holder needs a name", field);
    if (!isUnitAmount(row.units)) return refuse("InvalidInput", UNITS_RULE, field);
    if (role === "shareholder" && row.units <= 0) return refuse("InvalidInput", "a shareholder holds units", field);
    if (row.resident_id !== null) {
      if (seen.has(row.resident_id)) return refuse("InvalidInput", "a holder appears twice", field);
      seen.add(row.resident_id);
    }
    out.push({
      name: row.name.trim(),
      email: row.email.trim().toLowerCase(),
      resident_id: row.resident_id,
      units: coop && role === "founding_member" ? 0 : row.units,
      role,
    });
  }
  if (!withinUnitMaximum(out)) return refuse("InvalidInput", CAP_TABLE_UNITS_RULE, { field: "shareholders" });
  if (out.every((r) => r.role === "director")) {
    return refuse("InvalidInput", "a company needs at least one shareholder (founding member)", {
      field: "shareholders",
    });
  }
  return out;
}

/** Holders counted for pricing: every cap-table row that is not only a director (the one rule's pricedHolders). */
export const pricedHolderCount = (table: readonly ShareholderData[]): number => pricedHolders(table);

export type RegistrationPrice = ReturnType<typeof companyPricing>;

/** PricingService's price of the registration (early bird decided here from `now`), or the refusal of bad counts. */
export function registrationPrice(
  type: CompanyType,
  holderCount: number,
  plan: CompanySubscriptionPlan,
  now: Date,
): RegistrationPrice | Refusal<"InvalidInput"> {
  try {
    return companyPricing(type, holderCount, plan, earlyBirdApplies(now));
  } catch (err) {
    if (err instanceof PricingInputError) return refuse("InvalidInput", err.message, { field: "shareholders" });
    throw err;
  }
}

/** The pricing snapshot stamped on the company row. */
export function pricingSnapshot(price: RegistrationPrice) {
  return {
    setup_fee_paid: price.setup_fee,
    monthly_fee_rate: price.monthly_fee_rate,
    shareholder_fee_rate: price.shareholder_fee_rate,
    prepaid_discount_applied: price.prepaid_discount,
    early_bird_applied: price.early_bird_applied,
  };
}

/** The first subscription period the registration pays: [now, now + the plan's months). */
export function firstPeriod(plan: CompanySubscriptionPlan, now: Date): { start: Date; end: Date } {
  return { start: now, end: addMonths(now, COMPANY_PLANS[plan].months) };
}

export interface RoleToOpen {
  subjectId: string;
  role: CompanyRoleKind;
}

/**
 * The CompanyRole rows a registration opens: `founder` for the founder resident, the cap table's role for each
 * holder with a known id, `director` for each director; one row per subject and role.
 */
export function registrationRoles(
  type: CompanyType,
  founder: string | null,
  table: readonly ShareholderData[],
  directors: readonly string[],
): RoleToOpen[] {
  const out: RoleToOpen[] = [];
  const add = (subjectId: string, role: CompanyRoleKind) => {
    if (!out.some((r) => r.subjectId === subjectId && r.role === role)) out.push({ subjectId, role });
  };
  if (founder !== null) add(founder, "founder");
  for (const row of table) if (row.resident_id !== null) add(row.resident_id, holderRole(type, row));
  for (const d of directors) add(d, "director");
  return out;
}

/**
 * A reseller key creates companies only when it carries `allow_company_creation`, for its own partner, owned by the
 * partner's wallet user (the user the key acts as). Null when allowed.
 */
export function resellerCreationRefusal(
  key: { user_id: string | null; partner_id: string | null; allow_company_creation: boolean } | null,
  partner: { sid: string; wallet_user_id: string; allow_company_creation: boolean } | null,
  caller: { userId: string; partnerId: string | null },
): Refusal<"Forbidden"> | null {
  if (!key?.allow_company_creation || !partner?.allow_company_creation) {
    return refuse("Forbidden", "this reseller key may not create companies (allow_company_creation is off)");
  }
  if (key.partner_id !== caller.partnerId || partner.sid !== caller.partnerId) {
    return refuse("Forbidden", "a reseller key creates companies for its own partner only");
  }
  if (key.user_id !== partner.wallet_user_id || caller.userId !== partner.wallet_user_id) {
    return refuse("Forbidden", "a partner's companies are owned by its wallet user");
  }
  return null;
}
