import type { TreasuryOperationsServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { executeExchange, getExchangeQuote, listExchanges } from "./treasury/exchange.ts";
import { initiateExternalTransfer } from "./treasury/external.ts";
import { approveTransfer, cancelTransfer, initiateTransfer, listTransfers } from "./treasury/transfers.ts";

/**
 * TreasuryOperationsService (issue 15): internal and external transfers with approval above the source account's
 * threshold, and exchanges at server-issued quotes (src/services/treasury/, docs/decisions.md "Treasury").
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
