import type { ErrorType } from "../../../generated/codes.ts";
import type { Config } from "../../config.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";
import { dryEmail, providersAreDry } from "../dry-run.ts";
import { EmailDeliveryError, type EmailMessage, type EmailProvider, type EmailReceipt } from "./provider.ts";
import { SandboxEmailProvider } from "./sandbox.ts";

export type { EmailMessage, EmailProvider, EmailReceipt } from "./provider.ts";

const sandbox = new SandboxEmailProvider();

/** The configured email provider; the sandbox is the only one so far. */
export function emailProvider(_config: Config): EmailProvider {
  if (providersAreDry()) return dryEmail;
  return sandbox;
}

/** Sends through the configured provider; a delivery failure becomes `-32009 ProviderUnavailable` of `type`. */
export async function sendEmail(
  ctx: Pick<RpcContext, "em" | "keepOnRollback" | "log" | "config" | "now">,
  type: ErrorType,
  message: EmailMessage,
): Promise<EmailReceipt> {
  try {
    return await emailProvider(ctx.config).send(ctx, message, ctx.now());
  } catch (err) {
    if (err instanceof EmailDeliveryError)
      throw RpcError.app(type, "ProviderUnavailable", "the email could not be sent");
    throw err;
  }
}
