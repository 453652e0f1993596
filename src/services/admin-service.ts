import type { AdminServiceHandlers } from "../../generated/handlers/index.ts";
import { listAdminActions, setSuspension } from "../auth/suspension.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** AdminService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const adminService: AdminServiceHandlers<RpcContext> = {
  async suspendUser(ctx, { user_id, reason }) {
    return setSuspension(ctx, user_id, reason);
  },
  async unsuspendUser(ctx, { user_id }) {
    return setSuspension(ctx, user_id, null);
  },
  async listAdminActions(ctx, params) {
    return listAdminActions(ctx, params);
  },
  async voidCompany(_ctx, _params) {
    throw RpcError.notImplemented("adminservice.void_company");
  },
  async grantLicense(_ctx, _params) {
    throw RpcError.notImplemented("adminservice.grant_license");
  },
  async revokeLicense(_ctx, _params) {
    throw RpcError.notImplemented("adminservice.revoke_license");
  },
};
