import { randomBytes } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { ApiKeyResult, PartnerResult } from "../../generated/types.ts";
import type { Config } from "../config.ts";
import { addDays, KEY_POLICY_DEFAULTS, PERSONAL_KEY_TTL_DAYS } from "../domain/key-policy.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { issueKey, toApiKeyResult } from "./api-key-store.ts";
import { limitAddress, reserveAttempt } from "./limits.ts";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords.ts";
import { humanCode, newToken, TOKEN_PREFIX } from "./tokens.ts";

export type PartnerRow = Record<string, unknown> & {
  sid: string;
  name: string;
  client_id: string;
  client_secret_hash: string;
  access_password_hash: string;
  wallet_user_id: string;
  is_active: boolean;
  allow_company_creation: boolean;
  discount_profile: string | null;
  contact_email: string | null;
  signing_public_key: string | null;
  credentials_rotated_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export interface PartnerSecrets {
  client_secret: string;
  access_password: string;
}

/** Fresh secrets, shown once; only their argon2id hashes are stored. */
export async function newPartnerSecrets(
  config: Config,
): Promise<{ secrets: PartnerSecrets; hashes: { client_secret_hash: string; access_password_hash: string } }> {
  const secrets = { client_secret: newToken(TOKEN_PREFIX.partnerSecret), access_password: humanCode(24) };
  return {
    secrets,
    hashes: {
      client_secret_hash: await hashPassword(secrets.client_secret, config.argon2),
      access_password_hash: await hashPassword(secrets.access_password, config.argon2),
    },
  };
}

export function newClientId(): string {
  return `${TOKEN_PREFIX.partnerClientId}${randomBytes(16).toString("base64url")}`;
}

export async function activeKeyCount(em: EntityManager, partnerId: string, now: Date): Promise<number> {
  const rows = await em.execute<{ n: string }[]>(
    `select count(*) as n from "api_key" where partner_id = ? and is_active and (expires_at is null or expires_at > ?)`,
    [partnerId, now],
  );
  return Number(rows[0]?.n ?? 0);
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function toPartnerResult(row: PartnerRow, keys: number): PartnerResult {
  return {
    partner_id: row.sid,
    name: row.name,
    client_id: row.client_id,
    wallet_user_id: row.wallet_user_id,
    contact_email: row.contact_email,
    signing_public_key: row.signing_public_key,
    allow_company_creation: row.allow_company_creation,
    discount_profile: row.discount_profile,
    is_active: row.is_active,
    active_key_count: keys,
    credentials_rotated_at: iso(row.credentials_rotated_at),
    created_at: iso(row.created_at) as string,
    updated_at: iso(row.updated_at) as string,
  };
}

const invalid = () => RpcError.app("ApiKeyError", "InvalidCredentials", "invalid partner credentials");

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
  const partner = await ctx.em.findOne<PartnerRow>("PartnerConfiguration", { client_id: clientId });
  const secretOk = partner
    ? await verifyPassword(partner.client_secret_hash, clientSecret)
    : await verifyAgainstDummy(clientSecret, ctx.config.argon2);
  const passwordOk = partner
    ? await verifyPassword(partner.access_password_hash, accessPassword)
    : await verifyAgainstDummy(accessPassword, ctx.config.argon2);
  if (!partner || !secretOk || !passwordOk) throw invalid();
  await succeeded();
  const wallet = await ctx.em.execute<{ is_suspended: boolean }[]>(`select is_suspended from "user" where sid = ?`, [
    partner.wallet_user_id,
  ]);
  if (!partner.is_active || wallet[0]?.is_suspended !== false) {
    throw RpcError.forbidden("ApiKeyError", "Suspended", "the partner is deactivated");
  }
  const now = ctx.now();
  await ctx.em.execute(
    `update "api_key" set is_active = false, revoked_at = ?, updated_at = ?
      where sid in (select sid from "api_key" where partner_id = ? and is_active order by sid desc offset 1)`,
    [now, now, partner.sid],
  );
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
