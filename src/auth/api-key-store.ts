import type { EntityManager } from "@mikro-orm/postgresql";
import type { ApiKeyRow } from "../../generated/entities.ts";
import type { ApiKeyResult, ApiKeySummary } from "../../generated/types.ts";
import { uuidv7 } from "../domain/ids.ts";
import { type KeyPolicy, keyIsUsable, policyOf } from "../domain/key-policy.ts";
import { insertKey } from "../repos/api-keys.ts";
import { newToken, sha256Hex, TOKEN_PREFIX } from "./tokens.ts";

export interface NewKey {
  userId: string;
  partnerId: string | null;
  name: string;
  kind: "personal" | "reseller";
  policy: KeyPolicy;
  expiresAt: Date | null;
  isSystemMinted?: boolean;
  allowCompanyCreation?: boolean;
  discountProfile?: string | null;
}

/** Creates a key in the unit of work: the plaintext is returned once, only its SHA-256 is stored. */
export function issueKey(em: EntityManager, now: Date, input: NewKey): { row: ApiKeyRow; plaintext: string } {
  const prefix = input.kind === "personal" ? TOKEN_PREFIX.personalKey : TOKEN_PREFIX.resellerKey;
  const plaintext = newToken(prefix);
  const row = insertKey(em, {
    sid: uuidv7(now),
    key_hash: sha256Hex(plaintext),
    name: input.name,
    user_id: input.userId,
    partner_id: input.partnerId,
    prefix,
    last_four: plaintext.slice(-4),
    is_active: true,
    last_used_at: null,
    expires_at: input.expiresAt,
    revoked_at: null,
    discount_profile: input.discountProfile ?? null,
    allow_company_creation: input.allowCompanyCreation ?? false,
    is_system_minted: input.isSystemMinted ?? false,
    ...input.policy,
    created_at: now,
    updated_at: now,
  });
  return { row, plaintext };
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function shared(row: ApiKeyRow) {
  return {
    key_id: row.sid,
    name: row.name,
    prefix: row.prefix,
    last_four: row.last_four,
    expires_at: iso(row.expires_at),
    ...policyOf(row),
  };
}

export function toApiKeyResult(row: ApiKeyRow, plaintext: string): ApiKeyResult {
  return {
    ...shared(row),
    api_key: plaintext,
    partner_id: row.partner_id,
    allow_company_creation: row.allow_company_creation,
    created_at: row.created_at.toISOString(),
  };
}

/** A key as listed: never key material; revoked and expired keys show is_active false. */
export function toKeySummary(row: ApiKeyRow, now: Date): ApiKeySummary {
  return {
    ...shared(row),
    is_active: keyIsUsable(row.is_active, row.expires_at, now),
    revoked_at: iso(row.revoked_at),
    last_used_at: iso(row.last_used_at),
    created_at: row.created_at.toISOString(),
  };
}
