import type { ShareholderServiceHandlers } from "../../../generated/handlers/index.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

type Handlers = ShareholderServiceHandlers<RpcContext>;

export const initiateDividend: Handlers["initiateDividend"] = async () => {
  throw RpcError.notImplemented("shareholderservice.initiate_dividend");
};

export const executeDividend: Handlers["executeDividend"] = async () => {
  throw RpcError.notImplemented("shareholderservice.execute_dividend");
};

export const listDividends: Handlers["listDividends"] = async () => {
  throw RpcError.notImplemented("shareholderservice.list_dividends");
};
