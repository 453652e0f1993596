import type { VerificationServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** VerificationService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const verificationService: VerificationServiceHandlers<RpcContext> = {
  async verifyIndividual(_ctx, _params) {
    throw RpcError.notImplemented("verificationservice.verify_individual");
  },
  async verifyCompany(_ctx, _params) {
    throw RpcError.notImplemented("verificationservice.verify_company");
  },
  async createVerificationLink(_ctx, _params) {
    throw RpcError.notImplemented("verificationservice.create_verification_link");
  },
  async revokeVerificationLink(_ctx, _params) {
    throw RpcError.notImplemented("verificationservice.revoke_verification_link");
  },
  async listVerificationLinks(_ctx, _params) {
    throw RpcError.notImplemented("verificationservice.list_verification_links");
  },
  async deleteInactiveLinks(_ctx, _params) {
    throw RpcError.notImplemented("verificationservice.delete_inactive_links");
  },
  async verifyByToken(_ctx, _params) {
    throw RpcError.notImplemented("verificationservice.verify_by_token");
  },
  async publicVerifyUrl(_ctx, _params) {
    throw RpcError.notImplemented("verificationservice.public_verify_url");
  },
};
