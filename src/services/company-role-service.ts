import type { CompanyRoleServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** CompanyRoleService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const companyRoleService: CompanyRoleServiceHandlers<RpcContext> = {
  async listByCompany(_ctx, _params) {
    throw RpcError.notImplemented("companyroleservice.list_by_company");
  },
  async listByResident(_ctx, _params) {
    throw RpcError.notImplemented("companyroleservice.list_by_resident");
  },
};
