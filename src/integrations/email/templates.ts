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

/** Text for an HTML body: the five characters HTML gives meaning to, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
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

/** The invoice email (issue 15); the PDF is attached by the caller. */
export function invoiceMessage(input: InvoiceEmailInput): EmailMessage & { bodyHtml: string } {
  const total = `${input.totalAmount.toFixed(2)} ${input.currency}`;
  const due = input.dueDate.toISOString().slice(0, 10);
  const intro = `${input.issuerName} sent you invoice ${input.invoiceNumber} for ${total}, due ${due}.`;
  const note = input.senderMessage;
  const text = [
    `Hello ${input.recipientName},`,
    "",
    intro,
    ...(note ? ["", `Message from ${input.issuerName}:`, note] : []),
    "",
    "The invoice is attached as a PDF.",
  ].join("\n");
  const e = escapeHtml;
  const html = [
    `<p>Hello ${e(input.recipientName)},</p>`,
    `<p>${e(intro)}</p>`,
    ...(note ? [`<p>Message from ${e(input.issuerName)}:</p>`, `<blockquote>${e(note)}</blockquote>`] : []),
    "<p>The invoice is attached as a PDF.</p>",
  ].join("\n");
  return {
    to: input.to,
    replyTo: input.replyTo,
    template: "invoice",
    subject: `Invoice ${input.invoiceNumber} from ${input.issuerName}`,
    bodyText: text,
    bodyHtml: html,
  };
}
