import type { EmailMessage } from "./provider.ts";

/** The http(s) links in a rendered body, in order (the sandbox logs them; the outbox lists them). */
export function linksIn(bodyText: string): string[] {
  return bodyText.match(/https?:\/\/\S+/g) ?? [];
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
