import type { PartnerConfigurationRow } from "../../../generated/entities.ts";
import type { Refusal } from "../../domain/refusal.ts";
import * as partners from "../../repos/partners.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/** What PartnerService's use cases share: its error type and the partner loader. */

export const partnerError = errorsFor("PartnerService", "PartnerError");

/** A rule's refusal as the service's declared error. */
export function refused(r: Refusal<"InvalidInput" | "InvalidState" | "AlreadyExists" | "InvalidSignature">): Error {
  return partnerError(r.refusal, r.message, r.details);
}

/** A concurrent call moved the partner between this call's read and its conditional write. */
export const changedMeanwhile = () => partnerError("InvalidState", "the partner changed meanwhile; read it again");

export async function loadPartner(ctx: RpcContext, partnerId: string): Promise<PartnerConfigurationRow> {
  const row = await partners.findPartner(ctx.em, partnerId);
  if (!row) throw partnerError.notFound("partner");
  return row;
}
