import type { RpcContext } from "../../rpc/context.ts";

/** What a provider writes through: the call's unit of work, and the writes that must survive its rollback. */
export type EmailWriter = Pick<RpcContext, "em" | "keepOnRollback" | "log">;

/** A rendered message: the provider only delivers, it never builds text. */
export interface EmailMessage {
  to: string;
  subject: string;
  bodyText: string;
  /** Template name, for example verify_email or password_reset. */
  template: string;
  /** HTML alternative of the body (invoice emails). */
  bodyHtml?: string | undefined;
  replyTo?: string | null | undefined;
  /** One attached file (the invoice PDF). */
  attachment?: EmailAttachment | undefined;
}

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface EmailReceipt {
  outboxId: string;
  providerMessageId: string;
}

/** Thrown when the provider cannot take the message; services answer -32009 ProviderUnavailable. */
export class EmailDeliveryError extends Error {
  constructor(
    readonly to: string,
    reason: string,
  ) {
    super(`email to ${to} not delivered: ${reason}`);
    this.name = "EmailDeliveryError";
  }
}

/**
 * Delivers a rendered email. Every message is recorded as an EmailOutbox row in the request's unit of work, so
 * a request that fails afterwards sends nothing.
 */
export interface EmailProvider {
  readonly name: string;
  send(writer: EmailWriter, message: EmailMessage, now: Date): Promise<EmailReceipt>;
}
