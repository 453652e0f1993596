import type { MethodPolicy } from "../../generated/policy.ts";
import type { RpcContext } from "./context.ts";
import { RpcError } from "./errors.ts";

/**
 * Errors a handler may raise whatever its method's `x-errors` say (docs/decisions.md "Errors as declared"):
 * - JSON-RPC's own codes (-32700 ... -32600: invalid params found by the handler, internal errors);
 * - `NotImplemented` (stubs) and `RateLimited` (auth and call limits strike anywhere), of any type;
 * - generic CRUD's `RecordError`;
 * - the refusals the dispatcher's own policy answers, when a handler repeats that policy in code:
 *   `MissingCredentials` / `SessionRequired` / `AdminOnly` (x-auth), `NotOwner` (caller binding),
 *   `PasswordRequired` / `WrongPassword` (x-password), `Internal` (x-internal), of one of the method's types;
 * - an agent key's refusals where money moves (src/mcp/spending.ts): ApiKeyError `SpendingLimit`, `ApprovalRequired`, `ProviderRejected` (no FX rate).
 */
const ANY_TYPE = new Set(["NotImplemented", "RateLimited", "MissingCredentials"]);
const POLICY = new Set(["SessionRequired", "AdminOnly", "NotOwner", "PasswordRequired", "WrongPassword", "Internal"]);
const KEY_SPENDING = new Set(["SpendingLimit", "ApprovalRequired", "ProviderRejected"]);

/** Why `err`, thrown by the handler of `method`, is not declared by it; null when it is. */
export function undeclaredReason(method: MethodPolicy, err: RpcError): string | null {
  if (err.code <= -32600 && err.code >= -32700) return null;
  const type = err.data?.type;
  const variant = err.data?.variant;
  if (type === "RecordError" || (variant !== undefined && ANY_TYPE.has(variant))) return null;
  if (type === "ApiKeyError" && variant !== undefined && KEY_SPENDING.has(variant)) return null;
  if (type === undefined || variant === undefined) return "an application error without data.type and data.variant";
  const declared = method.errors[type];
  if (!declared) return `error type ${type} is not declared`;
  if (declared.includes(variant) || POLICY.has(variant)) return null;
  return `variant ${type}.${variant} is not declared`;
}

/**
 * What a call answers for `err`, thrown by the handler of `method`: with `validateResults` on (tests), an RpcError
 * its method does not declare becomes -32603 and is logged at error level, like a result that does not match its
 * schema; any other error is answered as it is.
 */
export function declaredError(method: MethodPolicy, ctx: Pick<RpcContext, "config" | "log">, err: unknown): unknown {
  const reason = ctx.config.validateResults && err instanceof RpcError ? undeclaredReason(method, err) : null;
  if (reason === null) return err;
  const data = (err as RpcError).data;
  ctx.log.error(
    { method: method.name, type: data?.type, variant: data?.variant, declared: method.errors },
    `handler raised an undeclared error: ${reason}`,
  );
  return RpcError.internal(err);
}
