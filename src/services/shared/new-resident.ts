import type { DigitalResidentRow } from "../../../generated/entities.ts";
import { counterName, externalId, formattedId } from "../../domain/formatted-ids.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { takeNumber } from "../../repos/counters.ts";
import { insertResident } from "../../repos/digital-residents.ts";
import { takeExternalCounter } from "../../repos/external-ids.ts";
import type { RpcContext } from "../../rpc/context.ts";

/** What a new resident's creator decides; ids, defaults and timestamps are the server's. */
export type NewResident = Pick<DigitalResidentRow, "user_id" | "partner_id" | "email" | "first_name" | "last_name"> &
  Partial<
    Pick<
      DigitalResidentRow,
      | "phone"
      | "resident_type"
      | "source"
      | "subscription_plan"
      | "auto_renewal"
      | "is_tanzanian_citizen"
      | "physical_residence_zanzibar"
      | "risk_tier"
    >
  >;

/**
 * Creates a DigitalResident in the call's transaction: `resident_id` numbered per year from the Counter row
 * `<PREFIX>-<YYYY>-RA` (UTC year of the call), `external_id` minted from the global ExternalIdState counter,
 * status `pending`. Used by resident creation, approved reseller requests and approved KYB. A second personal
 * resident of one user fails on the `digital_resident_personal_user_unique` index
 * (UniqueConstraintViolationException, for the caller to map).
 */
export async function createResident(ctx: RpcContext, fields: NewResident): Promise<DigitalResidentRow> {
  const now = ctx.now();
  const prefix = ctx.config.idPrefix;
  const year = now.getUTCFullYear();
  const number = await takeNumber(ctx.em, counterName(prefix, year, "RA"), now);
  const { counter, key } = await takeExternalCounter(ctx.em, now);
  return insertResident(ctx.em, {
    sid: uuidv7(now),
    resident_id: formattedId(prefix, year, "RA", number),
    phone: "",
    kyc_provider_id: "",
    status: "pending",
    public_key: null,
    encrypted_private_key: null,
    keypair_version: 0,
    subscription_plan: null,
    auto_renewal: false,
    subscription_start_date: null,
    subscription_end_date: null,
    cardpsp_connected_account_id: null,
    mobilepay_merchant_id: null,
    payment_receiving_enabled: false,
    is_tanzanian_citizen: null,
    physical_residence_zanzibar: null,
    risk_tier: null,
    kyc_refreshed_at: null,
    kyc_next_refresh_at: null,
    resident_type: null,
    source: null,
    anonymity_enabled: false,
    anonymity_changed_at: null,
    ...fields,
    external_id: externalId(prefix, key, counter),
    external_id_counter: counter,
    created_at: now,
    updated_at: now,
  });
}
