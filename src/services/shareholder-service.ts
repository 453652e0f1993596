import type { ShareholderServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { executeDividend, initiateDividend, listDividends } from "./shareholder-service/dividends.ts";
import { acceptInvite, inviteShareholder, listInvites, rejectInvite } from "./shareholder-service/invites.ts";
import {
  approveTransfer,
  cancelTransfer,
  completeTransfer,
  initiateTransfer,
  listTransfers,
  rejectTransfer,
} from "./shareholder-service/transfers.ts";

/**
 * ShareholderService (issue 17): one file per group of use cases (shareholder-service/invites.ts, shareholder-service/transfers.ts, shareholder-service/dividends.ts).
 * Codegen adds a stub here for each new method.
 */
export const shareholderService: ShareholderServiceHandlers<RpcContext> = {
  inviteShareholder,
  acceptInvite,
  rejectInvite,
  listInvites,
  initiateTransfer,
  approveTransfer,
  completeTransfer,
  cancelTransfer,
  listTransfers,
  initiateDividend,
  executeDividend,
  listDividends,
  rejectTransfer,
};
