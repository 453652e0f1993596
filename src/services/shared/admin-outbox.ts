import type { EmailOutboxRow } from "../../../generated/entities.ts";
import type { AdminServiceHandlers } from "../../../generated/handlers/index.ts";
import type { OutboxEmailResult } from "../../../generated/types.ts";
import { type Refusal, refuse } from "../../domain/refusal.ts";
import { type EmailProvider, emailProvider } from "../../integrations/email/index.ts";
import { linksIn } from "../../integrations/email/templates.ts";
import { listOutboxRows } from "../../repos/email-outbox.ts";
import { cursorPage, decodeCursor } from "../../repos/paging.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

const adminError = errorsFor("AdminService", "AdminError");

const DEFAULT_LIMIT = 100;

/**
 * The outbox is read only while the sandbox provider is in use: its emails never left the machine, so the outbox
 * is the only mailbox. With a real provider the bodies would hold live links of real mailboxes.
 */
export function outboxRefusal(provider: Pick<EmailProvider, "name">): Refusal<"InvalidState"> | null {
  if (provider.name === "sandbox") return null;
  return refuse("InvalidState", "the outbox is listed only while the sandbox email provider is in use");
}

const toOutboxEmail = (row: EmailOutboxRow): OutboxEmailResult => ({
  sid: row.sid,
  to_email: row.to_email,
  subject: row.subject,
  template: row.template,
  body_text: row.body_text,
  links: linksIn(row.body_text),
  status: row.status,
  error: row.error,
  created_at: row.created_at.toISOString(),
});

/** adminservice.list_outbox: newest first, optionally for one recipient, paged by an opaque cursor. */
export const listOutbox: AdminServiceHandlers<RpcContext>["listOutbox"] = async (
  ctx,
  { to_email, limit = DEFAULT_LIMIT, cursor },
) => {
  const refusal = outboxRefusal(emailProvider(ctx.config));
  if (refusal) throw adminError(refusal.refusal, refusal.message);
  const after = decodeCursor(cursor, 1, () => adminError("InvalidInput", "unknown cursor"));
  const toEmail = to_email?.trim();
  const rows = await listOutboxRows(ctx.em, { toEmail, beforeSid: after?.[0] }, limit + 1);
  return cursorPage(rows, limit, (row) => [row.sid], toOutboxEmail);
};
