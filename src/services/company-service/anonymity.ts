import type { CompanyServiceHandlers } from "../../../generated/handlers/index.ts";
import { ownsResident } from "../../domain/resident-access.ts";
import { flipCompanyAnonymity } from "../../repos/companies.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { companyError, loadCompany, toCompanyResult } from "./common.ts";

type Handlers = CompanyServiceHandlers<RpcContext>;

/**
 * Owner only, as residentservice.set_anonymity: the dispatcher's company:member answers NotFound to callers without
 * a role; here a member that is not the owner by the pair (a founder resident, an administrator's session) gets
 * Forbidden. Every status. Only a flip writes (conditional on the old value) and moves anonymity_changed_at.
 */
export const setAnonymity: Handlers["setAnonymity"] = async (ctx, { company_id, enabled }) => {
  const row = ctx.target.row;
  if (!ownsResident(requireCaller(ctx), row)) {
    throw companyError("Forbidden", "only the company's owner sets its anonymity");
  }
  const now = ctx.now();
  if (row.anonymity_enabled === enabled) return toCompanyResult(row, now);
  if ((await flipCompanyAnonymity(ctx.em, company_id, enabled, now)) === 0) {
    return toCompanyResult(await loadCompany(ctx, company_id), now);
  }
  return toCompanyResult({ ...row, anonymity_enabled: enabled, anonymity_changed_at: now, updated_at: now }, now);
};
