import type { PartnerConfigurationRow } from "../../generated/entities.ts";
import type { PartnerServiceHandlers } from "../../generated/handlers/index.ts";
import { KeyCache } from "../auth/key-cache.ts";
import { auditRevocations } from "../auth/key-revocation.ts";
import { hashPassword } from "../auth/passwords.ts";
import { newToken } from "../auth/tokens.ts";
import { uuidv7 } from "../domain/ids.ts";
import { discountProfileRefusal, partnerName, reactivationRefusal, rotationRefusal } from "../domain/partners.ts";
import { isRefusal } from "../domain/refusal.ts";
import * as keys from "../repos/api-keys.ts";
import * as partners from "../repos/partners.ts";
import { insertUser } from "../repos/users.ts";
import { recordAdminAction } from "../rpc/admin-actions.ts";
import type { RpcContext } from "../rpc/context.ts";
import { changedMeanwhile, loadPartner, partnerError, refused } from "./partner-service/common.ts";
import {
  getSigningKeys,
  registerSigningKey,
  retireSigningKey,
  rotateSigningKey,
} from "./partner-service/signing-keys.ts";
import { newClientId, newPartnerSecrets, toPartnerResult } from "./shared/partner-credentials.ts";

/*
 * The worked example of docs/handler-pattern.md. Each handler: load (src/repos/partners.ts), decide (the pure rules
 * of src/domain/partners.ts answer a value or a Refusal), apply (em.create for inserts; every state change a
 * conditional update in the repository, then the partner's keys, one AdminAction), map (a Refusal to a declared PartnerError variant; the row to PartnerResult).
 * The dispatcher already checked that the caller is an administrator in a session: nothing here checks it again.
 * The partner's own request-signing key (registered and rotated with its reseller key) is partner-service/signing-keys.ts.
 */

/** The partner's wallet user: owns what the partner onboards; nobody knows its password, so nobody signs in. */
async function createWalletUser(ctx: RpcContext, partnerId: string, now: Date): Promise<string> {
  const user = insertUser(ctx.em, {
    sid: uuidv7(now),
    email: `partner-${partnerId}@partners.freezone.invalid`,
    password_hash: await hashPassword(newToken("unusable_"), ctx.config.argon2),
    roles: ["user"],
    email_verified: false,
    is_suspended: false,
    totp_enabled: false,
    backup_code_hashes: [],
    partner_id: partnerId,
    created_at: now,
    updated_at: now,
  });
  return user.sid;
}

export const partnerService: PartnerServiceHandlers<RpcContext> = {
  async createPartner(ctx, { name, allow_company_creation, discount_profile }) {
    const clean = partnerName(name);
    if (isRefusal(clean)) throw refused(clean);
    const badProfile = discountProfileRefusal(discount_profile, ctx.config.discountProfiles);
    if (badProfile) throw refused(badProfile);
    if (await partners.partnerNameTaken(ctx.em, clean)) {
      throw partnerError("AlreadyExists", "a partner with this name exists");
    }
    const now = ctx.now();
    const sid = uuidv7(now);
    const { secrets, hashes } = await newPartnerSecrets(ctx.config);
    const row = partners.insertPartner(ctx.em, {
      sid,
      name: clean,
      client_id: newClientId(),
      ...hashes,
      wallet_user_id: await createWalletUser(ctx, sid, now),
      is_active: true,
      allow_company_creation: allow_company_creation ?? false,
      discount_profile: discount_profile ?? null,
      contact_email: null,
      signing_public_key: null,
      credentials_rotated_at: null,
      created_at: now,
      updated_at: now,
    });
    const details = {
      name: clean,
      allow_company_creation: row.allow_company_creation,
      discount_profile: row.discount_profile,
    };
    recordAdminAction(ctx, { action: "create_partner", targetType: "partner", targetId: sid, details });
    return { ...toPartnerResult(row, 0), ...secrets };
  },

  async listPartners(ctx) {
    const rows = await partners.listPartners(ctx.em);
    const counts = await keys.activeKeyCounts(
      ctx.em,
      rows.map((r) => r.sid),
      ctx.now(),
    );
    return { items: rows.map((row) => toPartnerResult(row, counts.get(row.sid) ?? 0)) };
  },

  /** Idempotent: the partner's reseller keys are revoked at once; records it onboarded stay. */
  async deactivatePartner(ctx, { partner_id }) {
    const row = await loadPartner(ctx, partner_id);
    const now = ctx.now();
    // A concurrent deactivation that wins the conditional write leaves this one nothing to do (idempotent).
    const deactivated =
      row.is_active && (await partners.updatePartnerIf(ctx.em, row.sid, true, { is_active: false }, now));
    let keysRevoked = 0;
    if (deactivated) {
      const revoked = await keys.revokePartnerKeysBeyond(ctx.em, row.sid, 0, now);
      KeyCache.of(ctx.em)?.drop(`partner:${row.sid}`);
      const why = { reason: "partner deactivated", method: "partnerservice.deactivate_partner" };
      await auditRevocations(ctx, revoked, why, now);
      keysRevoked = revoked.length;
    }
    const details = { already_inactive: !deactivated, keys_revoked: keysRevoked };
    recordAdminAction(ctx, { action: "deactivate_partner", targetType: "partner", targetId: row.sid, details });
    return toPartnerResult({ ...row, is_active: false, updated_at: deactivated ? now : row.updated_at }, 0);
  },

  /** New client_secret and access_password (client_id stays); existing reseller keys keep working. */
  async rotatePartnerCredentials(ctx, { partner_id }) {
    const row = await loadPartner(ctx, partner_id);
    const inactive = rotationRefusal(row);
    if (inactive) throw refused(inactive);
    const now = ctx.now();
    const { secrets, hashes } = await newPartnerSecrets(ctx.config);
    const changes = { ...hashes, credentials_rotated_at: now };
    if (!(await partners.updatePartnerIf(ctx.em, row.sid, true, changes, now))) throw changedMeanwhile();
    recordAdminAction(ctx, {
      action: "rotate_partner_credentials",
      targetType: "partner",
      targetId: row.sid,
      details: {},
    });
    const updated = { ...row, ...changes, updated_at: now };
    return { ...toPartnerResult(updated, await keys.activeKeyCount(ctx.em, row.sid, now)), ...secrets };
  },

  /** The flags apply to the partner's active reseller keys too. */
  async updatePartner(ctx, { partner_id, allow_company_creation, discount_profile }) {
    const row = await loadPartner(ctx, partner_id);
    const badProfile = discountProfileRefusal(discount_profile, ctx.config.discountProfiles);
    if (badProfile) throw refused(badProfile);
    const now = ctx.now();
    const changes: Partial<Pick<PartnerConfigurationRow, "allow_company_creation" | "discount_profile">> = {
      ...(allow_company_creation !== undefined ? { allow_company_creation } : {}),
      ...(discount_profile !== undefined ? { discount_profile } : {}),
    };
    await partners.updatePartnerIf(ctx.em, row.sid, null, changes, now);
    if (Object.keys(changes).length > 0) await keys.updateActivePartnerKeys(ctx.em, row.sid, changes, now);
    recordAdminAction(ctx, { action: "update_partner", targetType: "partner", targetId: row.sid, details: changes });
    return toPartnerResult({ ...row, ...changes, updated_at: now }, await keys.activeKeyCount(ctx.em, row.sid, now));
  },
  /** Active again, with fresh credentials (the old ones never work again); old reseller keys stay revoked. */
  async reactivatePartner(ctx, { partner_id }) {
    const row = await loadPartner(ctx, partner_id);
    const active = reactivationRefusal(row);
    if (active) throw refused(active);
    const now = ctx.now();
    const { secrets, hashes } = await newPartnerSecrets(ctx.config);
    const changes = { ...hashes, is_active: true, credentials_rotated_at: now };
    if (!(await partners.updatePartnerIf(ctx.em, row.sid, false, changes, now))) throw changedMeanwhile();
    recordAdminAction(ctx, { action: "reactivate_partner", targetType: "partner", targetId: row.sid, details: {} });
    const updated = { ...row, ...changes, updated_at: now };
    return { ...toPartnerResult(updated, await keys.activeKeyCount(ctx.em, row.sid, now)), ...secrets };
  },
  registerSigningKey,
  rotateSigningKey,
  getSigningKeys,
  retireSigningKey,
};
