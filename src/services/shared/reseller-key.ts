import type { ApiKeyResult } from "../../../generated/types.ts";
import { issueKey, toApiKeyResult } from "../../auth/api-key-store.ts";
import { KeyCache } from "../../auth/key-cache.ts";
import { auditRevocations } from "../../auth/key-revocation.ts";
import { limitAddress, reserveAttempt } from "../../auth/limits.ts";
import { verifyAgainstDummy, verifyPassword } from "../../auth/passwords.ts";
import { addDays, KEY_POLICY_DEFAULTS, PERSONAL_KEY_TTL_DAYS } from "../../domain/key-policy.ts";
import { ACTIVE_RESELLER_KEYS } from "../../domain/partners.ts";
import { revokePartnerKeysBeyond } from "../../repos/api-keys.ts";
import { findPartnerByClientId } from "../../repos/partners.ts";
import { findUserById } from "../../repos/users.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

const apiKeyError = errorsFor("ApiKeyService", "ApiKeyError");

/**
 * apikeyservice.generate: partner credentials in, a reseller key out. Rate limited like logins (per address,
 * and failures per client_id); an unknown client_id costs the same two argon2 checks as a wrong secret, and
 * every wrong credential answers the same. At most two keys are active per partner (rotation overlap): issuing
 * a third revokes the oldest.
 */
export async function generateResellerKey(
  ctx: RpcContext,
  clientId: string,
  clientSecret: string,
  accessPassword: string,
): Promise<ApiKeyResult> {
  await limitAddress(ctx, "ApiKeyError");
  const succeeded = await reserveAttempt(ctx, "ApiKeyError", `partner:${clientId}`);
  const partner = await findPartnerByClientId(ctx.em, clientId);
  const secretOk = partner
    ? await verifyPassword(partner.client_secret_hash, clientSecret)
    : await verifyAgainstDummy(clientSecret, ctx.config.argon2);
  const passwordOk = partner
    ? await verifyPassword(partner.access_password_hash, accessPassword)
    : await verifyAgainstDummy(accessPassword, ctx.config.argon2);
  if (!partner || !secretOk || !passwordOk) throw apiKeyError("InvalidCredentials", "invalid partner credentials");
  await succeeded();
  const wallet = await findUserById(ctx.em, partner.wallet_user_id);
  if (!partner.is_active || wallet?.is_suspended !== false) {
    throw apiKeyError("Suspended", "the partner is deactivated");
  }
  const now = ctx.now();
  const retired = await revokePartnerKeysBeyond(ctx.em, partner.sid, ACTIVE_RESELLER_KEYS - 1, now);
  if (retired.length > 0) KeyCache.of(ctx.em)?.drop(`partner:${partner.sid}`);
  const why = { reason: "retired by a newer reseller key", method: "apikeyservice.generate" };
  await auditRevocations(ctx, retired, why, now);
  const { row, plaintext } = issueKey(ctx.em, now, {
    userId: partner.wallet_user_id,
    partnerId: partner.sid,
    name: `${partner.name} reseller key`,
    kind: "reseller",
    policy: KEY_POLICY_DEFAULTS,
    expiresAt: addDays(now, PERSONAL_KEY_TTL_DAYS),
    allowCompanyCreation: partner.allow_company_creation,
    discountProfile: partner.discount_profile,
  });
  return toApiKeyResult(row, plaintext);
}
