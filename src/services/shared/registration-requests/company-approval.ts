import type { PartnerConfigurationRow, RegistrationRequestRow } from "../../../../generated/entities.ts";
import type { Address } from "../../../../generated/types.ts";
import { isRefusal } from "../../../domain/refusal.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { registerCompany } from "../company-registration.ts";
import { adminRegistrationError } from "./review.ts";

/**
 * What an approved company request registers (docs/decisions.md "Company registration (issue 16)"): the request
 * carries only the client's name and email, so the company is a `single_fzc` on the monthly plan named
 * `client_name`, contact email `client_email`, registered at the zone's office in the partner's care until its owner
 * changes the address (companyservice.update), with the client as its one shareholder on the cap table (no resident
 * id yet, so no role row). It is owned by the partner's wallet user with the partner's id (the pair its reseller
 * keys act as) and paid by the request's confirmed payment (the prerequisite check), so no wallet is debited.
 */
export const PARTNER_COMPANY = { company_type: "single_fzc", plan: "monthly", units: 1 } as const;

export function partnerCompanyAddress(partner: Pick<PartnerConfigurationRow, "name">): Address {
  return {
    line1: `c/o ${partner.name}`,
    line2: null,
    city: "Stone Town",
    region: "Zanzibar",
    postal_code: null,
    country: "TZ",
  };
}

/** Registers the partner's company for an approved request; its formatted id. A refusal is InvalidState. */
export async function createPartnerCompany(
  ctx: RpcContext,
  row: RegistrationRequestRow,
  partner: PartnerConfigurationRow,
): Promise<string> {
  const registered = await registerCompany(ctx, {
    owner: { user_id: partner.wallet_user_id, partner_id: partner.sid, owner_resident_id: null },
    payer: row.payment_id ? { payment_id: row.payment_id } : { wallet_user_id: partner.wallet_user_id },
    company: {
      name: row.client_name,
      company_type: PARTNER_COMPANY.company_type,
      address: partnerCompanyAddress(partner),
      profile: { email: row.client_email },
    },
    plan: PARTNER_COMPANY.plan,
    founder_resident_id: null,
    holders: [
      {
        name: row.client_name,
        email: row.client_email,
        resident_id: null,
        units: PARTNER_COMPANY.units,
        role: "shareholder",
      },
    ],
    created_by: null,
  });
  if (isRefusal(registered)) {
    throw adminRegistrationError("InvalidState", `the company cannot be registered: ${registered.message}`, {
      failed: ["company_registration"],
      reason: registered.refusal,
    });
  }
  return registered.company.company_id;
}
