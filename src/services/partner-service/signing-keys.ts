import type { PartnerConfigurationRow, PublicKeyHistoryRow } from "../../../generated/entities.ts";
import type { PartnerServiceHandlers } from "../../../generated/handlers/index.ts";
import type { PartnerSigningKeysResult } from "../../../generated/types.ts";
import {
  decideKeyChange,
  type KeyChange,
  nextKeyVersion,
  retirementRefusal,
} from "../../domain/partner-signing-keys.ts";
import { isRefusal } from "../../domain/refusal.ts";
import * as partners from "../../repos/partners.ts";
import { appendKey, closeOpenKey, listKeyHistory } from "../../repos/public-key-history.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { withAuditDetails } from "../../rpc/audit-marks.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { changedMeanwhile, loadPartner, partnerError, refused } from "./common.ts";

/**
 * A partner's request-signing key (docs/decisions.md "Partner signing keys (issue 30)"): the key that verifies the
 * reseller_signature of registration requests. The partner registers and rotates it with its reseller key (the
 * dispatcher checked the key and bound partner_id to it); an administrator can only retire it. The current key is
 * PartnerConfiguration.signing_public_key; every key is a PublicKeyHistory row of entity_type `partner`.
 */

type Handlers = PartnerServiceHandlers<RpcContext>;

interface KeyEntry {
  version: number;
  public_key: string;
  valid_from: Date;
  valid_to: Date | null;
  /** Held without a history row (set before the history): recorded when it is replaced. */
  unrecorded: boolean;
}

/** The partner's keys, newest first: the history, plus a current key that has no open row (stored before it). */
async function keysOf(ctx: RpcContext, partner: PartnerConfigurationRow): Promise<KeyEntry[]> {
  const rows: PublicKeyHistoryRow[] = await listKeyHistory(ctx.em, "partner", partner.sid);
  const entries: KeyEntry[] = rows.map((r) => ({ ...pick(r), unrecorded: false }));
  const current = partner.signing_public_key;
  if (current !== null && !entries.some((k) => k.valid_to === null && k.public_key === current)) {
    entries.unshift({
      version: nextKeyVersion(entries),
      public_key: current,
      valid_from: partner.created_at,
      valid_to: null,
      unrecorded: true,
    });
  }
  return entries;
}

function pick(r: PublicKeyHistoryRow) {
  return { version: r.version, public_key: r.public_key, valid_from: r.valid_from, valid_to: r.valid_to };
}

function toKeysResult(partnerId: string, current: string | null, entries: KeyEntry[]): PartnerSigningKeysResult {
  const open = entries.find((k) => k.valid_to === null && k.public_key === current);
  return {
    partner_id: partnerId,
    signing_public_key: current,
    current_version: open?.version ?? null,
    items: entries.map((k) => ({
      version: k.version,
      public_key: k.public_key,
      valid_from: k.valid_from.toISOString(),
      valid_to: k.valid_to?.toISOString() ?? null,
      is_current: k === open,
    })),
  };
}

/** Closes the current key at `now` (its open row, or a row recording a key held before the history); the one closed. */
async function retireCurrent(
  ctx: RpcContext,
  partnerId: string,
  entries: KeyEntry[],
  now: Date,
): Promise<KeyEntry | null> {
  const current = entries.find((k) => k.valid_to === null);
  if (!current) return null;
  if (current.unrecorded) await appendKey(ctx.em, historyRow(partnerId, { ...current, valid_to: now }), now);
  else await closeOpenKey(ctx.em, "partner", partnerId, now);
  current.valid_to = now;
  return current;
}

function historyRow(partnerId: string, k: KeyEntry) {
  const { version, public_key, valid_from, valid_to } = k;
  return { entity_type: "partner" as const, entity_id: partnerId, version, public_key, valid_from, valid_to };
}

interface ChangeParams {
  partner_id: string;
  public_key: string;
  proof_signature: string;
  current_key_signature?: string;
}

/** Register and rotate: decide, swap the key conditionally, close the old history row, append the new one. */
async function changeKey(ctx: RpcContext, change: KeyChange, p: ChangeParams): Promise<PartnerSigningKeysResult> {
  const partner = await loadPartner(ctx, p.partner_id);
  const entries = await keysOf(ctx, partner);
  const decided = decideKeyChange({
    change,
    partnerId: partner.sid,
    isActive: partner.is_active,
    currentKey: partner.signing_public_key,
    history: entries,
    publicKey: p.public_key,
    proofSignature: p.proof_signature,
    ...(p.current_key_signature !== undefined ? { currentKeySignature: p.current_key_signature } : {}),
  });
  if (isRefusal(decided)) throw refused(decided);
  const now = ctx.now();
  if (!(await partners.replaceSigningKeyIf(ctx.em, partner.sid, partner.signing_public_key, p.public_key, true, now))) {
    throw changedMeanwhile();
  }
  const retired = await retireCurrent(ctx, partner.sid, entries, now);
  const added: KeyEntry = {
    version: decided.version,
    public_key: p.public_key,
    valid_from: now,
    valid_to: null,
    unrecorded: false,
  };
  await appendKey(ctx.em, historyRow(partner.sid, added), now);
  return withAuditDetails(toKeysResult(partner.sid, p.public_key, [added, ...entries]), {
    signing_key_change: change,
    version: decided.version,
    public_key: p.public_key,
    ...(retired ? { retired_version: retired.version } : {}),
  });
}

export const registerSigningKey: Handlers["registerSigningKey"] = (ctx, p) => changeKey(ctx, "register", p);

export const rotateSigningKey: Handlers["rotateSigningKey"] = (ctx, p) => changeKey(ctx, "rotate", p);

export const getSigningKeys: Handlers["getSigningKeys"] = async (ctx, { partner_id }) => {
  const partner = await loadPartner(ctx, partner_id);
  return toKeysResult(partner.sid, partner.signing_public_key, await keysOf(ctx, partner));
};

/** A lost or leaked key: retired at once, whatever the partner's activity; the partner registers a new one. */
export const retireSigningKey: Handlers["retireSigningKey"] = async (ctx, { partner_id, reason }) => {
  const partner = await loadPartner(ctx, partner_id);
  const why = reason.trim();
  if (why === "") throw partnerError("InvalidInput", "reason must not be blank", { field: "reason" });
  const none = retirementRefusal(partner.signing_public_key);
  if (none) throw refused(none);
  const entries = await keysOf(ctx, partner);
  const now = ctx.now();
  if (!(await partners.replaceSigningKeyIf(ctx.em, partner.sid, partner.signing_public_key, null, false, now))) {
    throw changedMeanwhile();
  }
  const retired = await retireCurrent(ctx, partner.sid, entries, now);
  const details = { version: retired?.version ?? null, public_key: partner.signing_public_key, reason: why };
  recordAdminAction(ctx, {
    action: "retire_partner_signing_key",
    targetType: "partner",
    targetId: partner.sid,
    details,
  });
  return withAuditDetails(toKeysResult(partner.sid, null, entries), { signing_key_change: "retire", ...details });
};
