import type { KybServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { approve, reject } from "./kyb-service/decisions.ts";
import { get, list, startCheck, submit } from "./kyb-service/registrations.ts";
import { handleKybWebhook } from "./kyb-service/webhook.ts";

/**
 * KybService: business verification of companies outside the zone (ExternalCompanyRegistration). Submitters
 * submit and start the provider's check, the provider's signed webhook records its verdict, administrators decide
 * (the verdict is advisory unless KYB_HARD_GATE is on). Use cases under src/services/kyb-service/.
 */
export const kybService: KybServiceHandlers<RpcContext> = {
  submit,
  get,
  list,
  startCheck,
  approve,
  reject,
  handleKybWebhook,
};
