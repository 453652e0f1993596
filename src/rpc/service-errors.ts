import type { ErrorType, ErrorVariant } from "../../generated/codes.ts";
import type { ServiceErrors } from "../../generated/errors.ts";
import { RpcError } from "./errors.ts";

export type ServiceName = keyof ServiceErrors;
/** The error types some method of service `S` declares in `x-errors`. */
export type DeclaredType<S extends ServiceName> = keyof ServiceErrors[S] & ErrorType;
/** The variants some method of service `S` declares for error type `T`. */
export type DeclaredVariant<
  S extends ServiceName,
  T extends DeclaredType<S>,
> = ServiceErrors[S][T] extends readonly (infer V)[] ? V & ErrorVariant : never;

/**
 * One service's errors of one type: `err("InvalidState", "message", details)` builds the RpcError (code from
 * the variant, spec/errors.json), `err.notFound("resident")` is `-32003 NotFound` "resident not found" where
 * the service declares NotFound. A variant the service declares nowhere for that type does not compile.
 */
export type DeclaredErrors<T extends ErrorType, V extends ErrorVariant> = {
  (variant: V, message?: string, details?: Record<string, unknown>, cause?: unknown): RpcError;
  readonly type: T;
} & ("NotFound" extends V ? { notFound(what?: string): RpcError } : Record<never, never>);

/** The typed error factory of one service and error type: `const residentError = errorsFor("ResidentService", "ResidentError")`. */
export function errorsFor<S extends ServiceName, T extends DeclaredType<S>>(
  _service: S,
  type: T,
): DeclaredErrors<T, DeclaredVariant<S, T>> {
  const make = (variant: ErrorVariant, message?: string, details?: Record<string, unknown>, cause?: unknown) =>
    RpcError.app(type, variant, message, details, cause);
  return Object.assign(make, {
    type,
    notFound: (what = "record") => RpcError.app(type, "NotFound", `${what} not found`),
  }) as unknown as DeclaredErrors<T, DeclaredVariant<S, T>>;
}
