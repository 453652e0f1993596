import { EmailOutboxEntity, type EmailOutboxRow } from "../../../generated/entities.ts";
import { uuidv7 } from "../../domain/ids.ts";
import {
  EmailDeliveryError,
  type EmailMessage,
  type EmailProvider,
  type EmailReceipt,
  type EmailWriter,
} from "./provider.ts";
import { linksIn, loggableLink } from "./templates.ts";

/**
 * The default provider: nothing leaves the machine; the outbox table is the mailbox (`npm run cli -- outbox`).
 * Deterministic failure for tests and demos: recipients on the reserved `.invalid` top-level domain (RFC 2606)
 * are refused, and the refusal is kept in the outbox (it survives the failing call's rollback) for operators to see.
 */
export class SandboxEmailProvider implements EmailProvider {
  readonly name = "sandbox";

  async send(writer: EmailWriter, message: EmailMessage, now: Date): Promise<EmailReceipt> {
    const outboxId = uuidv7(now);
    const row: EmailOutboxRow = {
      sid: outboxId,
      to_email: message.to,
      subject: message.subject,
      body_text: message.bodyText,
      template: message.template,
      status: "sent",
      provider_message_id: `sandbox-${outboxId}`,
      error: null,
      body_html: message.bodyHtml ?? null,
      reply_to: message.replyTo ?? null,
      attachment_filename: message.attachment?.filename ?? null,
      attachment_content_type: message.attachment?.contentType ?? null,
      attachment_base64: message.attachment ? Buffer.from(message.attachment.content).toString("base64") : null,
      created_at: now,
      updated_at: now,
    };
    if (/\.invalid$/i.test(message.to)) {
      const failed: EmailOutboxRow = {
        ...row,
        status: "failed",
        provider_message_id: null,
        error: "recipient refused",
      };
      await writer.em.insert(EmailOutboxEntity, failed);
      writer.keepOnRollback((em) => em.insert(EmailOutboxEntity, failed));
      throw new EmailDeliveryError(message.to, "recipient refused by the sandbox");
    }
    writer.em.create(EmailOutboxEntity, row);
    // Nothing leaves the machine: the line says a message was kept and where to read it (adminservice.list_outbox);
    // its links without their tokens (a token in a log line is a credential anyone reading the log holds).
    const links = linksIn(message.bodyText).map(loggableLink);
    writer.log.info(
      {
        to: message.to,
        subject: message.subject,
        template: message.template,
        outboxId,
        links,
        read: "adminservice.list_outbox",
      },
      "sandbox email",
    );
    return { outboxId, providerMessageId: `sandbox-${outboxId}` };
  }
}
