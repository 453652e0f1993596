import { singleLine, textBlock } from "../../domain/text-render.ts";
import type { EmailMessage } from "../../integrations/email/index.ts";

/**
 * The shareholder invitation email (issue 17): the one place the plaintext token leaves the server. The company name
 * is one line (subject and body), the company's message keeps its lines (src/domain/text-render.ts).
 */
export function shareholderInviteEmail(input: {
  to: string;
  companyName: string;
  units: number;
  message: string | null;
  token: string;
  expiresAt: Date;
  baseUrl: string;
}): EmailMessage {
  const link = `${input.baseUrl}/shareholder-invite?token=${encodeURIComponent(input.token)}`;
  const company = singleLine(input.companyName);
  const message = input.message === null ? "" : textBlock(input.message);
  return {
    to: input.to,
    template: "shareholder_invite",
    subject: `Invitation to become a shareholder of ${company}`,
    bodyText: [
      `You are invited to take up ${input.units} new share units of ${company}.`,
      ...(message ? ["", "Message from the company:", message] : []),
      "",
      "To accept or decline, sign in with this email address and open:",
      "",
      link,
      "",
      `Or enter this code: ${input.token}`,
      "",
      `The invitation works once and expires on ${input.expiresAt.toISOString().slice(0, 10)}.`,
    ].join("\n"),
  };
}
