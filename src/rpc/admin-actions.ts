import { type AdminActionEntry, insertAdminAction } from "../repos/admin-actions.ts";
import { requireCaller } from "./caller.ts";
import type { RpcContext } from "./context.ts";

/**
 * Records the calling administrator's action in the call's unit of work, so it commits exactly when the
 * action's own changes do. Returns the row's sid.
 */
export function recordAdminAction(ctx: Pick<RpcContext, "em" | "caller" | "now">, entry: AdminActionEntry): string {
  return insertAdminAction(ctx.em, requireCaller(ctx).email, ctx.now(), entry);
}
