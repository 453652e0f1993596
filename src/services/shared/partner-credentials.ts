import { randomBytes } from "node:crypto";
import type { PartnerConfigurationRow } from "../../../generated/entities.ts";
import type { PartnerResult } from "../../../generated/types.ts";
import { hashPassword } from "../../auth/passwords.ts";
import { humanCode, newToken, TOKEN_PREFIX } from "../../auth/tokens.ts";
import type { Config } from "../../config.ts";

export interface PartnerSecrets {
  client_secret: string;
  access_password: string;
}

/** Fresh secrets, shown once; only their argon2id hashes are stored. */
export async function newPartnerSecrets(config: Config): Promise<{
  secrets: PartnerSecrets;
  hashes: Pick<PartnerConfigurationRow, "client_secret_hash" | "access_password_hash">;
}> {
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

export function toPartnerResult(row: PartnerConfigurationRow, activeKeys: number): PartnerResult {
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
    active_key_count: activeKeys,
    credentials_rotated_at: row.credentials_rotated_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
