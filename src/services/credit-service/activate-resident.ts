import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { parsePublicKey } from "../../domain/ed25519.ts";
import { encryptedPrivateKeyRefusal } from "../../domain/keypairs.ts";
import { toCents } from "../../domain/money.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { effectiveStatus } from "../../domain/resident-status.ts";
import { isRenewalPlan, renewalPlanRefusal, residentRenewalPrice } from "../../domain/subscriptions.ts";
import { findOwnResident } from "../../repos/digital-residents.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { applyActivation, judgeActivation, toActivateResult } from "../registration-service/activation.ts";
import { storeKeypair } from "../shared/signing/entities.ts";
import { creditError, postDebit } from "./common.ts";
import { insufficient } from "./deduct.ts";

type Handlers = CreditServiceHandlers<RpcContext>;

/**
 * creditservice.activate_resident (docs/decisions.md "Wallet activation"): the caller's pending resident is
 * activated by the one activation rule (src/services/registration-service/activation.ts) with the plan's price
 * debited from the caller's wallet as its payment, and the client-generated keypair stored (with its history), all
 * in the call's transaction: a refusal at any step (rule, short wallet, a concurrent activation) writes nothing.
 */
export const activateResident: Handlers["activateResident"] = async (ctx, params) => {
  const { user_id, plan } = params;
  const badPlan = renewalPlanRefusal(plan);
  if (badPlan || !isRenewalPlan(plan)) throw creditError("InvalidInput", badPlan?.message, badPlan?.details);
  const key = parsePublicKey(params.public_key);
  if (isRefusal(key)) throw creditError("InvalidInput", key.message, key.details);
  const blob = encryptedPrivateKeyRefusal(params.encrypted_private_key, key);
  if (blob) throw creditError("InvalidInput", blob.message, blob.details);

  const resident = await findOwnResident(ctx.em, { userId: user_id, partnerId: requireCaller(ctx).partnerId });
  if (!resident) throw creditError("InvalidState", "the caller has no resident to activate", { status: null });
  const now = ctx.now();
  // Asked again after activation: the same activation, nothing charged (as activate_if_complete answers).
  if (effectiveStatus(resident, now) === "active") return toActivateResult(user_id, resident, "active", true, []);
  const decision = await judgeActivation(ctx, resident, { kind: "wallet", plan });
  if (isRefusal(decision)) throw creditError("InvalidState", decision.message, decision.details);
  if (!decision.activate) {
    throw creditError("InvalidState", `activation steps missing: ${decision.missing.join(", ")}`, {
      missing_steps: decision.missing,
    });
  }

  const price = residentRenewalPrice(plan);
  const debit = await postDebit(ctx, {
    userId: user_id,
    amount: toCents(price.amount),
    description: `Residency activation ${plan} for ${resident.resident_id}`,
    referenceType: "subscription",
    referenceId: resident.resident_id,
  });
  if (!debit) throw await insufficient(ctx, user_id, price.amount);

  const keys = { public_key: params.public_key, encrypted_private_key: params.encrypted_private_key };
  const stored = await storeKeypair(ctx, { entity_type: "resident", entity_id: resident.resident_id }, keys);
  const activated = stored && (await applyActivation(ctx, resident, decision));
  if (!stored || !activated) throw creditError("InvalidState", "the resident changed meanwhile; ask again");
  return {
    ...toActivateResult(user_id, activated, "active", true, []),
    keypair_version: stored.version,
    amount_charged: price.amount,
    credit_transaction_id: debit.sid,
    balance_after: debit.balance_after,
  };
};
