import type { DigitalResidentRow } from "../../../generated/entities.ts";
import type { ActivateResult } from "../../../generated/types.ts";
import {
  type ActivationDecision,
  type ActivationPayment,
  decideActivation,
  laterFlowStatus,
} from "../../domain/activation.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { type ResidentChanges, updateResidentIf } from "../../repos/digital-residents.ts";
import { findFlow, recordFlow } from "../../repos/registration.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { activationFacts, residentRecords } from "./facts.ts";

/**
 * Activation, shared by registrationservice.activate_if_complete, confirm_kyc and (wallet path)
 * creditservice.activate_resident: judge with src/domain/activation.ts, then `applyActivation` in the caller's
 * transaction.
 */

export type Activation = Extract<ActivationDecision, { activate: true }>;

/**
 * The activation rule for `resident` now: with its confirmed registration payment, or (creditservice) with the
 * wallet debit `{ kind: "wallet", plan }` the caller makes in the same transaction.
 */
export async function judgeActivation(
  ctx: RpcContext,
  resident: DigitalResidentRow,
  payment?: ActivationPayment,
): Promise<ActivationDecision | Refusal<"InvalidState">> {
  const now = ctx.now();
  return decideActivation(activationFacts(await residentRecords(ctx, resident), now, payment), now);
}

/**
 * Moves the pending resident to active with the decided period (and `extra` changes made with it, such as the
 * keypair creditservice stores), and records the owner's flow as registration_complete. Returns the row after the
 * move, or null when the resident was no longer pending (a concurrent activation or suspension won).
 */
export async function applyActivation(
  ctx: RpcContext,
  resident: DigitalResidentRow,
  activation: Activation,
  extra: ResidentChanges = {},
): Promise<DigitalResidentRow | null> {
  const now = ctx.now();
  const changes: ResidentChanges = {
    ...extra,
    status: "active",
    subscription_plan: activation.storedPlan,
    auto_renewal: activation.autoRenewal,
    subscription_start_date: activation.start,
    subscription_end_date: activation.end,
  };
  if ((await updateResidentIf(ctx.em, resident.resident_id, ["pending"], changes, now)) === 0) return null;
  if (resident.user_id !== null) await recordFlowAtLeast(ctx, resident.user_id, "registration_complete");
  return { ...resident, ...changes, updated_at: now };
}

/** Records a flow status, never moving the recorded one backwards. */
export async function recordFlowAtLeast(
  ctx: RpcContext,
  userId: string,
  status: "kyc_complete" | "registration_complete",
) {
  const stored = await findFlow(ctx.em, userId, "resident");
  await recordFlow(ctx.em, userId, "resident", laterFlowStatus(status, stored?.status ?? null), ctx.now());
}

export function toActivateResult(
  userId: string,
  resident: DigitalResidentRow,
  status: DigitalResidentRow["status"],
  activated: boolean,
  missing: string[],
): ActivateResult {
  return {
    activated,
    user_id: userId,
    resident_id: resident.resident_id,
    status,
    subscription_plan: resident.subscription_plan,
    subscription_start_date: resident.subscription_start_date?.toISOString() ?? null,
    subscription_end_date: resident.subscription_end_date?.toISOString() ?? null,
    keypair_version: null,
    amount_charged: null,
    credit_transaction_id: null,
    balance_after: null,
    missing_steps: missing,
  };
}
