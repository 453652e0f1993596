import type { EmailMessage } from "../../integrations/email/index.ts";

/** The shareholder invitation email (issue 17): the one place the plaintext token leaves the server. */
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
  return {
    to: input.to,
    template: "shareholder_invite",
    subject: `Invitation to become a shareholder of ${input.companyName}`,
    bodyText: [
      `You are invited to take up ${input.units} new share units of ${input.companyName}.`,
      ...(input.message ? ["", "Message from the company:", input.message] : []),
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
