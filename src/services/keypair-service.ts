import type { KeypairServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** KeypairService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const keypairService: KeypairServiceHandlers<RpcContext> = {
  async storeClientKeypair(_ctx, _params) {
    throw RpcError.notImplemented("keypairservice.store_client_keypair");
  },
  async getEncryptedPrivateKey(_ctx, _params) {
    throw RpcError.notImplemented("keypairservice.get_encrypted_private_key");
  },
  async verifySignature(_ctx, _params) {
    throw RpcError.notImplemented("keypairservice.verify_signature");
  },
};
