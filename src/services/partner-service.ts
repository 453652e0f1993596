import type { PartnerServiceHandlers } from "../../generated/handlers/index.ts";
import { activeKeyCount, newClientId, newPartnerSecrets, type PartnerRow, toPartnerResult } from "../auth/partners.ts";
import { hashPassword } from "../auth/passwords.ts";
import { newToken } from "../auth/tokens.ts";
import { recordAdminAction } from "../domain/admin-action.ts";
import { uuidv7 } from "../domain/ids.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { errorsFor } from "../rpc/service-errors.ts";

const partnerError = errorsFor("PartnerService", "PartnerError");

function adminEmail(ctx: RpcContext): string {
  if (!ctx.caller) throw RpcError.unauthenticated();
  return ctx.caller.email;
}

function checkProfile(ctx: RpcContext, profile: string | undefined): void {
  if (profile !== undefined && !ctx.config.discountProfiles.includes(profile)) {
    throw partnerError("InvalidInput", `unknown discount profile "${profile.slice(0, 60)}"`, {
      field: "discount_profile",
      known: ctx.config.discountProfiles,
    });
  }
}

async function partner(ctx: RpcContext, partnerId: string): Promise<PartnerRow> {
  const row = await ctx.em.findOne<PartnerRow>("PartnerConfiguration", { sid: partnerId });
  if (!row) throw partnerError.notFound("partner");
  return row;
}

/** The partner's wallet user: owns what the partner onboards; nobody knows its password, so nobody signs in. */
async function createWalletUser(ctx: RpcContext, partnerId: string, now: Date): Promise<string> {
  const sid = uuidv7(now);
  ctx.em.create("User", {
    sid,
    email: `partner-${partnerId}@partners.freezone.invalid`,
    password_hash: await hashPassword(newToken("unusable_"), ctx.config.argon2),
    first_name: null,
    last_name: null,
    email_verified: false,
    roles: ["user"],
    is_suspended: false,
    suspended_at: null,
    suspension_reason: null,
    totp_secret: null,
    totp_enabled: false,
    totp_last_step: null,
    backup_code_hashes: [],
    partner_id: partnerId,
    password_changed_at: null,
    created_at: now,
    updated_at: now,
  });
  return sid;
}

/** PartnerService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const partnerService: PartnerServiceHandlers<RpcContext> = {
  async createPartner(ctx, { name, allow_company_creation, discount_profile }) {
    const clean = name.trim();
    if (clean.length === 0) throw partnerError("InvalidInput", "name must not be blank");
    checkProfile(ctx, discount_profile);
    const taken = await ctx.em.execute(`select 1 from "partner_configuration" where lower(name) = lower(?) limit 1`, [
      clean,
    ]);
    if (taken.length > 0) throw partnerError("AlreadyExists", "a partner with this name exists");
    const now = ctx.now();
    const sid = uuidv7(now);
    const walletUserId = await createWalletUser(ctx, sid, now);
    const { secrets, hashes } = await newPartnerSecrets(ctx.config);
    const row = {
      sid,
      name: clean,
      client_id: newClientId(),
      ...hashes,
      wallet_user_id: walletUserId,
      is_active: true,
      allow_company_creation: allow_company_creation ?? false,
      discount_profile: discount_profile ?? null,
      contact_email: null,
      signing_public_key: null,
      credentials_rotated_at: null,
      created_at: now,
      updated_at: now,
    };
    ctx.em.create("PartnerConfiguration", row);
    recordAdminAction(
      ctx.em,
      adminEmail(ctx),
      {
        action: "create_partner",
        targetType: "partner",
        targetId: sid,
        details: {
          name: clean,
          allow_company_creation: row.allow_company_creation,
          discount_profile: row.discount_profile,
        },
      },
      now,
    );
    return { ...toPartnerResult(row, 0), ...secrets };
  },

  async listPartners(ctx) {
    const rows = await ctx.em.find<PartnerRow>("PartnerConfiguration", {}, { orderBy: { sid: "desc" } });
    const now = ctx.now();
    const items = [];
    for (const row of rows) items.push(toPartnerResult(row, await activeKeyCount(ctx.em, row.sid, now)));
    return { items };
  },

  /** Idempotent: the partner's reseller keys are revoked at once; records it onboarded stay. */
  async deactivatePartner(ctx, { partner_id }) {
    const row = await partner(ctx, partner_id);
    const now = ctx.now();
    const wasActive = row.is_active;
    let keysRevoked = 0;
    if (wasActive) {
      row.is_active = false;
      row.updated_at = now;
      const keys = await ctx.em.find<Record<string, unknown>>("ApiKey", { partner_id: row.sid, is_active: true });
      for (const key of keys) Object.assign(key, { is_active: false, revoked_at: now, updated_at: now });
      keysRevoked = keys.length;
    }
    recordAdminAction(
      ctx.em,
      adminEmail(ctx),
      {
        action: "deactivate_partner",
        targetType: "partner",
        targetId: row.sid,
        details: { already_inactive: !wasActive, keys_revoked: keysRevoked },
      },
      now,
    );
    return toPartnerResult(row, 0);
  },

  /** New client_secret and access_password (client_id stays); existing reseller keys keep working. */
  async rotatePartnerCredentials(ctx, { partner_id }) {
    const row = await partner(ctx, partner_id);
    if (!row.is_active) throw partnerError("InvalidState", "an inactive partner gets no credentials");
    const now = ctx.now();
    const { secrets, hashes } = await newPartnerSecrets(ctx.config);
    Object.assign(row, hashes, { credentials_rotated_at: now, updated_at: now });
    recordAdminAction(
      ctx.em,
      adminEmail(ctx),
      { action: "rotate_partner_credentials", targetType: "partner", targetId: row.sid, details: {} },
      now,
    );
    return { ...toPartnerResult(row, await activeKeyCount(ctx.em, row.sid, now)), ...secrets };
  },

  /** The flags apply to the partner's active reseller keys too. */
  async updatePartner(ctx, { partner_id, allow_company_creation, discount_profile }) {
    const row = await partner(ctx, partner_id);
    checkProfile(ctx, discount_profile);
    const now = ctx.now();
    const changes: Record<string, unknown> = {};
    if (allow_company_creation !== undefined) changes["allow_company_creation"] = allow_company_creation;
    if (discount_profile !== undefined) changes["discount_profile"] = discount_profile;
    Object.assign(row, changes, { updated_at: now });
    if (Object.keys(changes).length > 0) {
      const keys = await ctx.em.find<Record<string, unknown>>("ApiKey", { partner_id: row.sid, is_active: true });
      for (const key of keys) Object.assign(key, changes, { updated_at: now });
    }
    recordAdminAction(
      ctx.em,
      adminEmail(ctx),
      { action: "update_partner", targetType: "partner", targetId: row.sid, details: changes },
      now,
    );
    return toPartnerResult(row, await activeKeyCount(ctx.em, row.sid, now));
  },
};
