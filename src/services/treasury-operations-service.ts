import type { TreasuryOperationsServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { executeExchange, getExchangeQuote, listExchanges } from "./shared/treasury/exchange.ts";
import { initiateExternalTransfer } from "./shared/treasury/external.ts";
import { approveTransfer, cancelTransfer, initiateTransfer, listTransfers } from "./shared/treasury/transfers.ts";

/**
 * TreasuryOperationsService (issue 15): internal and external transfers with approval above the source account's
 * threshold, and exchanges at server-issued quotes (src/services/shared/treasury/, docs/decisions.md "Treasury").
 */
export const treasuryOperationsService: TreasuryOperationsServiceHandlers<RpcContext> = {
  initiateTransfer,
  initiateExternalTransfer,
  approveTransfer,
  cancelTransfer,
  listTransfers,
  getExchangeQuote,
  executeExchange,
  listExchanges,
};
