import type { Caller, RpcContext } from "./context.ts";
import { RpcError } from "./errors.ts";

/**
 * The verified caller of a method whose `x-auth` requires one. The dispatcher has refused anonymous calls
 * already, so this only narrows the type; it never re-checks roles, ownership or passwords.
 */
export function requireCaller(ctx: Pick<RpcContext, "caller">): Caller {
  if (!ctx.caller) throw RpcError.unauthenticated();
  return ctx.caller;
}
