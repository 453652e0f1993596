import type { TreasuryOperationsServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** TreasuryOperationsService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const treasuryOperationsService: TreasuryOperationsServiceHandlers<RpcContext> = {
  async initiateTransfer(_ctx, _params) {
    throw RpcError.notImplemented("treasuryoperationsservice.initiate_transfer");
  },
  async initiateExternalTransfer(_ctx, _params) {
    throw RpcError.notImplemented("treasuryoperationsservice.initiate_external_transfer");
  },
  async approveTransfer(_ctx, _params) {
    throw RpcError.notImplemented("treasuryoperationsservice.approve_transfer");
  },
  async cancelTransfer(_ctx, _params) {
    throw RpcError.notImplemented("treasuryoperationsservice.cancel_transfer");
  },
  async listTransfers(_ctx, _params) {
    throw RpcError.notImplemented("treasuryoperationsservice.list_transfers");
  },
  async getExchangeQuote(_ctx, _params) {
    throw RpcError.notImplemented("treasuryoperationsservice.get_exchange_quote");
  },
  async executeExchange(_ctx, _params) {
    throw RpcError.notImplemented("treasuryoperationsservice.execute_exchange");
  },
  async listExchanges(_ctx, _params) {
    throw RpcError.notImplemented("treasuryoperationsservice.list_exchanges");
  },
};
