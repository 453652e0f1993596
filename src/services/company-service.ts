import type { CompanyServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { create } from "./company-service/create.ts";

/** CompanyService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const companyService: CompanyServiceHandlers<RpcContext> = {
  async list(_ctx, _params) {
    throw RpcError.notImplemented("companyservice.list");
  },
  create,
  async get(_ctx, _params) {
    throw RpcError.notImplemented("companyservice.get");
  },
  async update(_ctx, _params) {
    throw RpcError.notImplemented("companyservice.update");
  },
  async delete(_ctx, _params) {
    throw RpcError.notImplemented("companyservice.delete");
  },
  async getCard(_ctx, _params) {
    throw RpcError.notImplemented("companyservice.get_card");
  },
  async getKeyStatus(_ctx, _params) {
    throw RpcError.notImplemented("companyservice.get_key_status");
  },
  async getCompanyEncryptedKey(_ctx, _params) {
    throw RpcError.notImplemented("companyservice.get_company_encrypted_key");
  },
  async storeCompanyKeypair(_ctx, _params) {
    throw RpcError.notImplemented("companyservice.store_company_keypair");
  },
};
