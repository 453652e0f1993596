import type { ResidentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { create, remove, update } from "./resident-service/profile.ts";
import { get, getCard, list } from "./resident-service/reads.ts";
import { setAnonymity, updateSubscription } from "./resident-service/settings.ts";
import { reinstate, suspend } from "./resident-service/suspension.ts";

/**
 * ResidentService (issue 14), also served as digitalresidentservice.*: reads (reads.ts), profile and deletion
 * (profile.ts), plan and anonymity (settings.ts), administrator suspension (suspension.ts); the expiry sweep is
 * resident-service/expiry-sweep.ts. Rules: src/domain/resident-access.ts, resident-status.ts, resident-profile.ts,
 * subscriptions.ts. Codegen adds a stub here for each new method.
 */
export const residentService: ResidentServiceHandlers<RpcContext> = {
  list,
  create,
  get,
  update,
  delete: remove,
  updateSubscription,
  getCard,
  setAnonymity,
  suspend,
  reinstate,
};
