import { htmlText, singleLine, textBlock } from "../../domain/text-render.ts";
import type { EmailMessage } from "./provider.ts";

/** The http(s) links in a rendered body, in order (the sandbox logs them; the outbox lists them). */
export function linksIn(bodyText: string): string[] {
  return bodyText.match(/https?:\/\/\S+/g) ?? [];
}

/**
 * A link as a log line may show it: origin and path, every query value and the fragment replaced by `...` (a reset,
 * verification or invitation token travels there). The whole link is read with adminservice.list_outbox.
 */
export function loggableLink(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return "(link)";
  }
  const keys = [...new Set(url.searchParams.keys())];
  const query = keys.length > 0 ? `?${keys.map((k) => `${encodeURIComponent(k)}=...`).join("&")}` : "";
  return `${url.origin}${url.pathname}${query}${url.hash ? "#..." : ""}`;
}

/** Rendered emails: plain text, the link first, the raw token repeated for clients that break long links. */
export function verifyEmailMessage(to: string, baseUrl: string, token: string, validHours: number): EmailMessage {
  const link = `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return {
    to,
    template: "verify_email",
    subject: "Confirm your email address",
    bodyText: [
      "Confirm your email address for your freezone account:",
      "",
      link,
      "",
      `Or enter this code: ${token}`,
      "",
      `The link works once and expires in ${validHours} hours. If you did not sign up, ignore this email.`,
    ].join("\n"),
  };
}

export function passwordResetMessage(to: string, baseUrl: string, token: string, validMinutes: number): EmailMessage {
  const link = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return {
    to,
    template: "password_reset",
    subject: "Reset your password",
    bodyText: [
      "Someone asked to reset the password of your freezone account. To choose a new password:",
      "",
      link,
      "",
      `Or enter this code: ${token}`,
      "",
      `The link works once and expires in ${validMinutes} minutes. Resetting signs you out everywhere and`,
      "revokes your API keys (mint new ones after signing in).",
      "If you did not ask for this, ignore this email; your password stays as it is.",
    ].join("\n"),
  };
}

export interface InvoiceEmailInput {
  to: string;
  replyTo: string | null;
  issuerName: string;
  recipientName: string;
  invoiceNumber: string;
  totalAmount: number;
  currency: string;
  dueDate: Date;
  /** The sender's personal note: body only (never the subject or a header), escaped in the HTML body. */
  senderMessage: string | null;
}

/**
 * The invoice email (issue 15); the PDF is attached by the caller. Names and numbers are one line in the text body
 * and the subject (a line break there would start a new line of the mail or, in the subject, a header); the note
 * keeps its lines. The HTML body holds every value through htmlText (src/domain/text-render.ts).
 */
export function invoiceMessage(input: InvoiceEmailInput): EmailMessage & { bodyHtml: string } {
  const issuer = singleLine(input.issuerName);
  const recipient = singleLine(input.recipientName);
  const number = singleLine(input.invoiceNumber);
  const total = `${input.totalAmount.toFixed(2)} ${singleLine(input.currency)}`;
  const due = input.dueDate.toISOString().slice(0, 10);
  const intro = `${issuer} sent you invoice ${number} for ${total}, due ${due}.`;
  const note = input.senderMessage === null ? "" : textBlock(input.senderMessage);
  const text = [
    `Hello ${recipient},`,
    "",
    intro,
    ...(note ? ["", `Message from ${issuer}:`, note] : []),
    "",
    "The invoice is attached as a PDF.",
  ].join("\n");
  const e = htmlText;
  const html = [
    `<p>Hello ${e(recipient)},</p>`,
    `<p>${e(intro)}</p>`,
    ...(note ? [`<p>Message from ${e(issuer)}:</p>`, `<blockquote>${e(note)}</blockquote>`] : []),
    "<p>The invoice is attached as a PDF.</p>",
  ].join("\n");
  return {
    to: input.to,
    replyTo: input.replyTo,
    template: "invoice",
    subject: `Invoice ${number} from ${issuer}`,
    bodyText: text,
    bodyHtml: html,
  };
}
