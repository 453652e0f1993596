import type { ExpenseServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** ExpenseService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const expenseService: ExpenseServiceHandlers<RpcContext> = {
  async list(_ctx, _params) {
    throw RpcError.notImplemented("expenseservice.list");
  },
  async create(_ctx, _params) {
    throw RpcError.notImplemented("expenseservice.create");
  },
  async get(_ctx, _params) {
    throw RpcError.notImplemented("expenseservice.get");
  },
  async update(_ctx, _params) {
    throw RpcError.notImplemented("expenseservice.update");
  },
  async delete(_ctx, _params) {
    throw RpcError.notImplemented("expenseservice.delete");
  },
  async submit(_ctx, _params) {
    throw RpcError.notImplemented("expenseservice.submit");
  },
  async approve(_ctx, _params) {
    throw RpcError.notImplemented("expenseservice.approve");
  },
  async reject(_ctx, _params) {
    throw RpcError.notImplemented("expenseservice.reject");
  },
};
