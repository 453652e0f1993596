import { randomBytes } from "node:crypto";
import type { CompanyType } from "../../../generated/types.ts";
import { companyRoles, mayActAsResident } from "../../auth/access.ts";
import { companyStatusRefusal } from "../../domain/company-status.ts";
import { contractFitsSigner, type SignInput, signInput } from "../../domain/contracts.ts";
import { isRefusal } from "../../domain/refusal.ts";
import * as catalogue from "../../repos/contract-catalogue.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { type Handlers, signError, toSignatureResult } from "./common.ts";

/**
 * sign_contract and get_signatures. The dispatcher bound user_id to the caller and writes the sign_contract audit
 * row (success and denial). A signature names the contract row (one row per version, src/contracts/sync.ts), its
 * version, the signer, the entity it binds and the client address; the receipt id is 24 random bytes.
 */

/** A receipt id: `fzr_` and 24 bytes from the CSPRNG in base64url (192 bits, not derived from anything). */
export function newReceiptId(): string {
  return `fzr_${randomBytes(24).toString("base64url")}`;
}

const notOwner = (what: string) => signError("NotOwner", `the caller does not control this ${what}`);

/** Checks the caller controls the entity; answers the company type a company signature must fit (else null). */
async function controlledEntity(ctx: RpcContext, input: SignInput): Promise<CompanyType | null> {
  const caller = requireCaller(ctx);
  const now = ctx.now();
  if (input.entityType === "digital_resident") {
    const resident = await catalogue.signerResident(ctx.em, input.entityId);
    if (!resident || !(await mayActAsResident(ctx.em, caller, resident.resident_id, now))) throw notOwner("resident");
    return null;
  }
  if (input.entityType === "company") {
    const company = await catalogue.signerCompany(ctx.em, input.entityId);
    const roles = company ? ((await companyRoles(ctx.em, caller, company.company_id, now)) ?? []) : [];
    if (!company || !(roles.includes("founder") || roles.includes("director"))) throw notOwner("company");
    const inactive = companyStatusRefusal(company.status, "update_profile");
    if (inactive) throw signError(inactive.refusal, inactive.message, inactive.details);
    return company.company_type;
  }
  return null;
}

export const signContract: Handlers["signContract"] = async (ctx, p) => {
  const input = signInput(p);
  if (isRefusal(input)) throw signError(input.refusal, input.message, input.details);
  const now = ctx.now();
  const contract = await catalogue.findContract(ctx.em, p.contract_id);
  const offered = contract?.is_active && (contract.effective_from === null || contract.effective_from <= now);
  if (!contract || !offered) throw signError.notFound("registration contract");
  const companyType = await controlledEntity(ctx, input);
  const misfit = contractFitsSigner(contract, input.entityType, companyType);
  if (misfit) throw signError(misfit.refusal, misfit.message, misfit.details);

  const key = { userId: p.user_id, contractId: contract.sid, entityType: input.entityType, entityId: input.entityId };
  await catalogue.lockSignature(ctx.em, key);
  const existing = await catalogue.findSignature(ctx.em, key, contract.version);
  if (existing) return toSignatureResult(existing);
  const row = catalogue.insertSignature(
    ctx.em,
    {
      ...key,
      version: contract.version,
      entityName: input.entityName,
      receiptId: newReceiptId(),
      ipAddress: ctx.request.ip || null,
    },
    now,
  );
  return toSignatureResult(row);
};

export const getSignatures: Handlers["getSignatures"] = async (ctx, { user_id }) => ({
  items: (await catalogue.signaturesOfUser(ctx.em, user_id)).map(toSignatureResult),
});
