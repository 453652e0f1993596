import type { ResidentServiceHandlers } from "../../../generated/handlers/index.ts";
import { ownsResident } from "../../domain/resident-access.ts";
import { isResidentPlan, RESIDENT_PLANS } from "../../domain/subscriptions.ts";
import { flipAnonymity, updateResidentIf } from "../../repos/digital-residents.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { loadResident, residentError, toResidentResult, toSubscriptionResult } from "./common.ts";

type Handlers = ResidentServiceHandlers<RpcContext>;

/** The plan for activation and the next renewal, and auto-renewal; no charge, no date moves. */
export const updateSubscription: Handlers["updateSubscription"] = async (ctx, { resident_id, plan, auto_renewal }) => {
  const row = await loadResident(ctx, resident_id, "change");
  if (!isResidentPlan(plan)) {
    throw residentError("InvalidInput", `plan is one of ${RESIDENT_PLANS.join(", ")}`, { field: "plan" });
  }
  const now = ctx.now();
  const changes = { subscription_plan: plan, auto_renewal };
  if ((await updateResidentIf(ctx.em, resident_id, [row.status], changes, now)) === 0) {
    throw residentError("InvalidState", "the resident changed meanwhile; read it again");
  }
  const caller = requireCaller(ctx);
  if (isAdminSession(caller) && !ownsResident(caller, row)) {
    recordAdminAction(ctx, {
      action: "update_resident_subscription",
      targetType: "resident",
      targetId: resident_id,
      details: changes,
    });
  }
  return toSubscriptionResult({ ...row, ...changes, updated_at: now }, now);
};

/**
 * Owner only (the pair; a proxy or an administrator sees the resident but gets NotOwner), in every status. Only a
 * flip writes, and it sets anonymity_changed_at; the flip is conditional on the old value, so of two concurrent
 * flips to the same value one writes.
 */
export const setAnonymity: Handlers["setAnonymity"] = async (ctx, { resident_id, enabled }) => {
  const row = await loadResident(ctx, resident_id, "own");
  const now = ctx.now();
  if (row.anonymity_enabled === enabled) return toResidentResult(row, now);
  if ((await flipAnonymity(ctx.em, resident_id, enabled, now)) === 0) {
    return toResidentResult(await loadResident(ctx, resident_id, "own"), now);
  }
  return toResidentResult({ ...row, anonymity_enabled: enabled, anonymity_changed_at: now, updated_at: now }, now);
};
