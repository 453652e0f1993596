import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { onboardingSteps } from "../../domain/onboarding.ts";
import { onboardingFacts } from "../../repos/credit-onboarding.ts";
import type { RpcContext } from "../../rpc/context.ts";

/** The caller's progressive unlock tiers, derived on each read (nothing stored). */
export const getOnboardingStatus: CreditServiceHandlers<RpcContext>["getOnboardingStatus"] = async (
  ctx,
  { user_id },
) => ({ user_id, ...onboardingSteps(await onboardingFacts(ctx.em, user_id)) });
