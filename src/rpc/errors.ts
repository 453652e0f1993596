import type { Logger } from "pino";
import { CODE_MESSAGE, ErrorCode, type ErrorType, type ErrorVariant, VARIANT_CODE } from "../../generated/codes.ts";

export interface RpcErrorData {
  type?: string;
  variant?: string;
  [key: string]: unknown;
}

/**
 * The one error class: every JSON-RPC error the server answers is an RpcError. A `cause` (any value: the
 * provider's answer, the driver's exception) is for the log only; `toJSON`, the wire shape, never includes it.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: RpcErrorData,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RpcError";
  }

  toJSON(): { code: number; message: string; data?: RpcErrorData } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** An application error: the code comes from the variant (spec/errors.json). */
  static app(
    type: ErrorType,
    variant: ErrorVariant,
    message?: string,
    details: Record<string, unknown> = {},
    cause?: unknown,
  ): RpcError {
    const code = VARIANT_CODE[variant];
    return new RpcError(code, message ?? CODE_MESSAGE[code] ?? variant, { type, variant, ...details }, { cause });
  }

  static notFound(type: ErrorType, what = "record"): RpcError {
    return RpcError.app(type, "NotFound", `${what} not found`);
  }

  static forbidden(type: ErrorType, variant: ErrorVariant = "Forbidden", message = "not allowed"): RpcError {
    return RpcError.app(type, variant, message);
  }

  static unauthenticated(variant: ErrorVariant = "MissingCredentials", message = "authentication required"): RpcError {
    return RpcError.app("AuthError", variant, message);
  }

  static notImplemented(method: string): RpcError {
    return RpcError.app("RpcError", "NotImplemented", `${method} is not implemented`, { method });
  }

  static parseError(): RpcError {
    return new RpcError(ErrorCode.ParseError, "Parse error");
  }

  static invalidRequest(reason: string): RpcError {
    return new RpcError(ErrorCode.InvalidRequest, `Invalid request: ${reason}`);
  }

  static methodNotFound(method: string): RpcError {
    return new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  static invalidParams(message: string, errors: unknown[] = []): RpcError {
    return new RpcError(ErrorCode.InvalidParams, `Invalid params: ${message}`, { errors });
  }

  /** Internal failures never carry details to the client: stack and SQL (the `cause`) stay in the log. */
  static internal(cause?: unknown): RpcError {
    return new RpcError(ErrorCode.InternalError, "Internal error", undefined, { cause });
  }
}

/** Logs the cause an RpcError carries (it never reaches the wire): at error level for internal errors, else warn. */
export function logCause(log: Pick<Logger, "error" | "warn">, err: RpcError, fields: Record<string, unknown>): void {
  if (err.cause === undefined) return;
  const level = err.code === ErrorCode.InternalError ? "error" : "warn";
  log[level]({ ...fields, code: err.code, variant: err.data?.variant, err: err.cause }, "error cause");
}
