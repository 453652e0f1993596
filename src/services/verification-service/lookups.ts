import type {
  CompanyVerificationResult,
  EntityType,
  IndividualVerificationResult,
  VerificationLinkStatus,
} from "../../../generated/types.ts";
import { limitAddress } from "../../auth/limits.ts";
import { sha256Hex } from "../../auth/tokens.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { linkStatus, linkUseRefusal } from "../../domain/verification-links.ts";
import {
  companyView,
  directorNames,
  effectiveTier,
  individualView,
  type Tier,
} from "../../domain/verification-tiers.ts";
import { findLinkByTokenHash, spendLink } from "../../repos/verification-links.ts";
import {
  type CompanyForVerification,
  currentDirectors,
  findCompanyForVerification,
  findResidentForVerification,
  latestIdentityCheck,
  type ResidentForVerification,
} from "../../repos/verification-reads.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/**
 * The public lookups: verify_individual and verify_company (tier derived by the server, lowered by requester_tier)
 * and verify_by_token (tier 3 through a link). Every lookup counts against the caller's address first.
 */

const verificationError = errorsFor("VerificationService", "VerificationError");
const linkError = errorsFor("VerificationService", "LinkError");

/** Lookups per client address: the same budget as the anonymous auth operations (60 a minute by default). */
export function limitLookups(ctx: RpcContext): Promise<void> {
  return limitAddress(ctx, "VerificationError", "verify");
}

/** A link usable now, by its raw token; refused as LinkError (unknown, expired, used, revoked). */
async function usableLink(ctx: RpcContext, token: string) {
  const link = await findLinkByTokenHash(ctx.em, sha256Hex(token));
  if (!link) throw linkError.notFound("verification link");
  const refusal = linkUseRefusal(linkStatus(link, ctx.now()));
  if (refusal) throw linkError(refusal.refusal, refusal.message);
  return link;
}

/** Counts one tier-3 lookup (spends a single-use link); a link spent or ended meanwhile is refused as it now is. */
async function useLink(ctx: RpcContext, link: { sid: string; token_hash: string }): Promise<VerificationLinkStatus> {
  const after = await spendLink(ctx.em, link.sid, ctx.now());
  if (after !== null) return after;
  const now = await findLinkByTokenHash(ctx.em, link.token_hash);
  const refusal = now ? linkUseRefusal(linkStatus(now, ctx.now())) : null;
  throw refusal ? linkError(refusal.refusal, refusal.message) : linkError.notFound("verification link");
}

/** The tier for this entity: a given link must be usable and made for it; it is spent only when tier 3 applies. */
async function tierFor(
  ctx: RpcContext,
  entity: { type: EntityType; id: string },
  requesterTier: number,
  linkToken: string | undefined,
): Promise<Tier> {
  const link = linkToken === undefined ? null : await usableLink(ctx, linkToken);
  if (link && (link.entity_type !== entity.type || link.entity_id !== entity.id)) {
    throw linkError.notFound("verification link");
  }
  const tier = effectiveTier(ctx.caller !== null, link !== null, requesterTier);
  if (isRefusal(tier)) throw verificationError(tier.refusal, tier.message, tier.details);
  if (tier === 3 && link) await useLink(ctx, link);
  return tier;
}

/** The identity is verified by a completed KYC session (level and date from it) or the provider reference it left. */
async function individualAt(
  ctx: RpcContext,
  r: ResidentForVerification,
  tier: Tier,
): Promise<IndividualVerificationResult> {
  const session = await latestIdentityCheck(ctx.em, r.resident_id);
  const identity = session ?? (r.kyc_provider_id !== "" ? { verification_level: null, verified_at: null } : null);
  return individualView(r, identity, tier, ctx.now());
}

async function companyAt(ctx: RpcContext, c: CompanyForVerification, tier: Tier): Promise<CompanyVerificationResult> {
  const directors = tier === 3 ? directorNames(await currentDirectors(ctx.em, c.company_id, ctx.now())) : [];
  return companyView(c, directors, tier, ctx.now());
}

export async function verifyIndividual(
  ctx: RpcContext,
  params: { resident_id: string; requester_tier: number; link_token?: string | undefined },
): Promise<IndividualVerificationResult> {
  await limitLookups(ctx);
  const resident = await findResidentForVerification(ctx.em, params.resident_id);
  if (!resident) throw verificationError.notFound("resident");
  const entity = { type: "resident" as const, id: resident.resident_id };
  return individualAt(ctx, resident, await tierFor(ctx, entity, params.requester_tier, params.link_token));
}

export async function verifyCompany(
  ctx: RpcContext,
  params: { company_id: string; requester_tier: number; link_token?: string | undefined },
): Promise<CompanyVerificationResult> {
  await limitLookups(ctx);
  const company = await findCompanyForVerification(ctx.em, params.company_id);
  if (!company) throw verificationError.notFound("company");
  const entity = { type: "company" as const, id: company.company_id };
  return companyAt(ctx, company, await tierFor(ctx, entity, params.requester_tier, params.link_token));
}

/** Tier 3 through a link: anonymity never masks it; a single-use link is spent. */
export async function verifyByToken(ctx: RpcContext, { token }: { token: string }) {
  await limitLookups(ctx);
  const link = await usableLink(ctx, token);
  if (link.entity_type === "resident") {
    const resident = await findResidentForVerification(ctx.em, link.entity_id);
    if (!resident) throw linkError.notFound("verification link");
    const link_status = await useLink(ctx, link);
    return {
      entity_type: link.entity_type,
      link_status,
      individual: await individualAt(ctx, resident, 3),
      company: null,
    };
  }
  const company = await findCompanyForVerification(ctx.em, link.entity_id);
  if (!company) throw linkError.notFound("verification link");
  const link_status = await useLink(ctx, link);
  return { entity_type: link.entity_type, link_status, individual: null, company: await companyAt(ctx, company, 3) };
}
