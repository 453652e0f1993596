import type { TaxServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** TaxService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const taxService: TaxServiceHandlers<RpcContext> = {
  async createFiling(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.create_filing");
  },
  async getFiling(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.get_filing");
  },
  async updateFiling(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.update_filing");
  },
  async submitFiling(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.submit_filing");
  },
  async listFilings(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.list_filings");
  },
  async getDeadlines(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.get_deadlines");
  },
  async generateDocument(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.generate_document");
  },
  async listDocuments(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.list_documents");
  },
  async acceptFiling(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.accept_filing");
  },
  async rejectFiling(_ctx, _params) {
    throw RpcError.notImplemented("taxservice.reject_filing");
  },
};
