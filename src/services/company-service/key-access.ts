import { mayReadCompanyKey } from "../../domain/company-keys.ts";
import { ownsResident } from "../../domain/resident-access.ts";
import { companyOwner, currentCompanyRoles } from "../../repos/company-access.ts";
import { ownedResidentIdsOf } from "../../repos/digital-residents.ts";
import { holdsSigningAuthority } from "../../repos/signing-authorities.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";

/**
 * The caller's standing toward a company's encrypted private key: `missing` (no such company), `outsider` (no
 * current role and not the owner), `denied` (a member the rule does not admit), `allowed`. Signing authority has no
 * record of its own (SigningAuthority, issue 17: governanceservice.grant_signing_authority / revoke_signing_authority,
 * and remove_director revokes it): a resident the caller owns holding an active row reads the key.
 */
export async function companyKeyStanding(
  ctx: RpcContext,
  companyId: string,
): Promise<"missing" | "outsider" | "denied" | "allowed"> {
  const caller = requireCaller(ctx);
  const owner = await companyOwner(ctx.em, companyId);
  if (!owner) return "missing";
  const owns = ownsResident(caller, owner);
  const residents = await ownedResidentIdsOf(ctx.em, caller);
  const roles = residents.length > 0 ? await currentCompanyRoles(ctx.em, companyId, residents, ctx.now()) : [];
  const signingAuthority = await holdsSigningAuthority(ctx.em, companyId, residents);
  if (mayReadCompanyKey({ owns, roles, signingAuthority })) return "allowed";
  return owns || roles.length > 0 ? "denied" : "outsider";
}
