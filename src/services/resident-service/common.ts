import type { DigitalResidentRow } from "../../../generated/entities.ts";
import type {
  ResidentCardResult,
  ResidentResult,
  ResidentSummary,
  SubscriptionResult,
} from "../../../generated/types.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { accessRefusal, ownsResident, residentAccess } from "../../domain/resident-access.ts";
import { effectiveStatus } from "../../domain/resident-status.ts";
import { isResidentPlan, subscriptionStatus } from "../../domain/subscriptions.ts";
import { holdsActiveProxy } from "../../repos/company-access.ts";
import { findResident, ownedResidentIdsOf } from "../../repos/digital-residents.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

export const residentError = errorsFor("ResidentService", "ResidentError");

/** A rule's refusal as the service's declared error. */
export function refused(r: Refusal<"InvalidInput" | "InvalidState" | "NotFound" | "NotOwner">): Error {
  return r.refusal === "NotFound" ? residentError.notFound("resident") : residentError(r.refusal, r.message, r.details);
}

/**
 * The resident, when the caller may `need` it (src/domain/resident-access.ts): the owner by the pair, an
 * administrator in a session, or (to see it) a caller holding an effective Proxy for it. NotFound when the caller
 * may not know it exists, NotOwner when it sees but may not do this.
 */
export async function loadResident(
  ctx: RpcContext,
  residentId: string,
  need: "see" | "change" | "own",
): Promise<DigitalResidentRow> {
  const caller = requireCaller(ctx);
  const row = await findResident(ctx.em, residentId);
  if (!row) throw residentError.notFound("resident");
  const owns = ownsResident(caller, row);
  const admin = isAdminSession(caller);
  let proxy = false;
  if (!owns && !admin) {
    const principals = await ownedResidentIdsOf(ctx.em, caller);
    proxy = principals.length > 0 && (await holdsActiveProxy(ctx.em, residentId, principals, ctx.now()));
  }
  const refusal = accessRefusal(residentAccess(owns, admin, proxy), need);
  if (refusal) throw refused(refusal);
  return row;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The stored plan, as the result schema has it (a stored value outside the resident plans reads null). */
function residentPlanOf(row: Pick<DigitalResidentRow, "subscription_plan">) {
  return row.subscription_plan !== null && isResidentPlan(row.subscription_plan) ? row.subscription_plan : null;
}

export function toResidentResult(row: DigitalResidentRow, now: Date): ResidentResult {
  return {
    sid: row.sid,
    resident_id: row.resident_id,
    user_id: row.user_id,
    partner_id: row.partner_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    status: effectiveStatus(row, now),
    resident_type: row.resident_type,
    source: row.source,
    public_key: row.public_key,
    keypair_version: row.keypair_version,
    subscription_plan: residentPlanOf(row),
    auto_renewal: row.auto_renewal,
    subscription_start_date: iso(row.subscription_start_date),
    subscription_end_date: iso(row.subscription_end_date),
    subscription_status: subscriptionStatus(row.subscription_end_date, now),
    payment_receiving_enabled: row.payment_receiving_enabled,
    anonymity_enabled: row.anonymity_enabled,
    anonymity_changed_at: iso(row.anonymity_changed_at),
    external_id: row.external_id,
    is_tanzanian_citizen: row.is_tanzanian_citizen,
    physical_residence_zanzibar: row.physical_residence_zanzibar,
    risk_tier: row.risk_tier,
    kyc_refreshed_at: iso(row.kyc_refreshed_at),
    kyc_next_refresh_at: iso(row.kyc_next_refresh_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toResidentSummary(row: DigitalResidentRow, now: Date): ResidentSummary {
  return {
    sid: row.sid,
    resident_id: row.resident_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    status: effectiveStatus(row, now),
    resident_type: row.resident_type,
    subscription_plan: residentPlanOf(row),
    subscription_end_date: iso(row.subscription_end_date),
    subscription_status: subscriptionStatus(row.subscription_end_date, now),
    anonymity_enabled: row.anonymity_enabled,
    external_id: row.external_id,
    created_at: row.created_at.toISOString(),
  };
}

export function toSubscriptionResult(row: DigitalResidentRow, now: Date): SubscriptionResult {
  return {
    resident_id: row.resident_id,
    subscription_plan: residentPlanOf(row),
    auto_renewal: row.auto_renewal,
    subscription_start_date: iso(row.subscription_start_date),
    subscription_end_date: iso(row.subscription_end_date),
    subscription_status: subscriptionStatus(row.subscription_end_date, now),
  };
}

export function toResidentCard(row: DigitalResidentRow, now: Date): ResidentCardResult {
  return {
    resident_id: row.resident_id,
    external_id: row.external_id,
    first_name: row.first_name,
    last_name: row.last_name,
    display_name: `${row.first_name} ${row.last_name}`.trim(),
    status: effectiveStatus(row, now),
    resident_type: row.resident_type,
    member_since: iso(row.subscription_start_date),
    subscription_status: subscriptionStatus(row.subscription_end_date, now),
    subscription_end_date: iso(row.subscription_end_date),
    public_key: row.public_key,
    keypair_version: row.keypair_version,
    anonymity_enabled: row.anonymity_enabled,
  };
}
