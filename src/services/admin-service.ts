import type { AdminServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** AdminService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const adminService: AdminServiceHandlers<RpcContext> = {
  async suspendUser(_ctx, _params) {
    throw RpcError.notImplemented("adminservice.suspend_user");
  },
  async unsuspendUser(_ctx, _params) {
    throw RpcError.notImplemented("adminservice.unsuspend_user");
  },
  async listAdminActions(_ctx, _params) {
    throw RpcError.notImplemented("adminservice.list_admin_actions");
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
