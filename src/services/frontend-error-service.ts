import type { FrontendErrorServiceHandlers } from "../../generated/handlers/index.ts";
import { limitAddress } from "../auth/limits.ts";
import { uuidv7 } from "../domain/ids.ts";
import { insertFrontendError } from "../repos/frontend-errors.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

const frontendError = errorsFor("FrontendErrorService", "RpcError");

/**
 * Pages are kept without query string or fragment: front-end URLs can carry one-time tokens (reset and
 * verification links), and an error log is no place for them.
 */
export function pagePath(page: string): string {
  return page.split(/[?#]/, 1)[0] ?? "";
}

/** FrontendErrorService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const frontendErrorService: FrontendErrorServiceHandlers<RpcContext> = {
  async log(ctx, { error_code, page, message, user_agent }) {
    await limitAddress(ctx, "RpcError", "frontend-errors", ctx.config.rateLimits.frontendErrorsPerMinute);
    if (!/^[A-Za-z0-9_.-]+$/.test(error_code)) {
      throw frontendError("InvalidInput", "error_code is a category: letters, digits, _ . -");
    }
    const now = ctx.now();
    insertFrontendError(ctx.em, {
      sid: uuidv7(now),
      user_id: ctx.caller?.userId ?? "",
      error_code,
      page: pagePath(page),
      message,
      user_agent: (user_agent ?? ctx.request.userAgent ?? "").slice(0, 512),
      ip_address: ctx.request.ip,
      created_at: now,
      updated_at: now,
    });
    return { logged: true };
  },
};
