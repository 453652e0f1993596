import type { DigitalResidentRow, ZoneCompanyRow } from "../../../generated/entities.ts";
import type { EntityType } from "../../../generated/types.ts";
import { companyRoles, satisfiesCompanyRole } from "../../auth/access.ts";
import { ownsResident } from "../../domain/resident-access.ts";
import { findResident } from "../../repos/digital-residents.ts";
import { findCompany } from "../../repos/payment-entities.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { paymentError } from "./common.ts";

export type Payable = { type: "resident"; resident: DigitalResidentRow } | { type: "company"; company: ZoneCompanyRow };

/**
 * The resident or company the caller may pay for (or manage receiving of): a resident it owns (the pair), or a
 * company it owns or where it is a current director. Anything else is NotFound (its existence is not told).
 */
export async function payableEntity(ctx: RpcContext, type: EntityType, entityId: string): Promise<Payable> {
  const caller = requireCaller(ctx);
  if (type === "resident") {
    const resident = await findResident(ctx.em, entityId);
    if (!resident || !ownsResident(caller, resident)) throw paymentError.notFound("resident");
    return { type, resident };
  }
  const company = await findCompany(ctx.em, entityId);
  const roles = company ? await companyRoles(ctx.em, caller, entityId, ctx.now()) : null;
  if (!company || !roles || !satisfiesCompanyRole(roles, "director")) throw paymentError.notFound("company");
  return { type, company };
}
