import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "../../domain/ids.ts";
import { EmailDeliveryError, type EmailMessage, type EmailProvider, type EmailReceipt } from "./provider.ts";

/**
 * The default provider: nothing leaves the machine; the outbox table is the mailbox (`npm run cli -- outbox`).
 * Deterministic failure for tests and demos: recipients on the reserved `.invalid` top-level domain (RFC 2606)
 * are refused, and the refusal is kept in the outbox (outside the failing request) for operators to see.
 */
export class SandboxEmailProvider implements EmailProvider {
  readonly name = "sandbox";

  async send(em: EntityManager, message: EmailMessage, now: Date): Promise<EmailReceipt> {
    const outboxId = uuidv7(now);
    const row = {
      sid: outboxId,
      to_email: message.to,
      subject: message.subject,
      body_text: message.bodyText,
      template: message.template,
      status: "sent",
      provider_message_id: `sandbox-${outboxId}` as string | null,
      error: null as string | null,
      created_at: now,
      updated_at: now,
    };
    if (/\.invalid$/i.test(message.to)) {
      const failed = em.fork();
      failed.create("EmailOutbox", { ...row, status: "failed", provider_message_id: null, error: "recipient refused" });
      await failed.flush();
      throw new EmailDeliveryError(message.to, "recipient refused by the sandbox");
    }
    em.create("EmailOutbox", row);
    return { outboxId, providerMessageId: `sandbox-${outboxId}` };
  }
}
