import { isValidEmail, normalizeEmail } from "./email.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Shareholder invitations (issue 17, docs/decisions.md "Directors, signing authority and shareholder invitations
 * (issue 17)"). An invitation is `pending` until accepted or rejected; past `expires_at` it is expired whatever the
 * stored status says (stored `pending` rows past their expiry are marked `expired` when a new invitation for the same
 * company and email is issued).
 */

/** Days an invitation token stays valid. */
export const INVITE_VALID_DAYS = 14;
export const MAX_INVITE_MESSAGE_CHARS = 2000;

export function inviteExpiry(now: Date): Date {
  return new Date(now.getTime() + INVITE_VALID_DAYS * 86_400_000);
}

export interface InviteInput {
  email: string;
  units: number;
  message: string | null;
}

/** The invitation's fields as stored (email trimmed and lower-cased, blank message null), or InvalidInput. */
export function inviteInput(raw: {
  invitee_email: string;
  proposed_units: number;
  message?: string | undefined;
}): InviteInput | Refusal<"InvalidInput"> {
  const email = normalizeEmail(raw.invitee_email);
  if (!isValidEmail(email))
    return refuse("InvalidInput", "invitee_email is not a valid address", { field: "invitee_email" });
  if (!Number.isFinite(raw.proposed_units) || raw.proposed_units <= 0)
    return refuse("InvalidInput", "proposed_units must be a number greater than 0", { field: "proposed_units" });
  const message = raw.message?.trim() ? raw.message.trim() : null;
  if (message !== null && message.length > MAX_INVITE_MESSAGE_CHARS)
    return refuse("InvalidInput", `message is longer than ${MAX_INVITE_MESSAGE_CHARS} characters`, {
      field: "message",
    });
  return { email, units: raw.proposed_units, message };
}

export interface InviteFacts {
  status: "pending" | "accepted" | "rejected" | "expired";
  expires_at: Date;
  invitee_email: string;
}

export interface Responder {
  /** The caller's account email (normalized). */
  email: string;
  emailVerified: boolean;
}

/**
 * Whether the caller may answer (accept or reject) the invitation now: its verified email must be the invitee's
 * (Forbidden, checked first so a stranger learns nothing of the state), then the invitation must still be pending
 * (AlreadyUsed once accepted or rejected) and not past expires_at (Expired).
 */
export function answerRefusal(
  invite: InviteFacts,
  caller: Responder,
  now: Date,
): Refusal<"Forbidden" | "AlreadyUsed" | "Expired"> | null {
  if (!caller.emailVerified || normalizeEmail(caller.email) !== normalizeEmail(invite.invitee_email))
    return refuse("Forbidden", "the invitation was sent to another verified email address");
  if (invite.status === "accepted" || invite.status === "rejected")
    return refuse("AlreadyUsed", `the invitation was already ${invite.status}`, { status: invite.status });
  if (invite.status === "expired" || invite.expires_at.getTime() <= now.getTime())
    return refuse("Expired", "the invitation has expired", { expires_at: invite.expires_at.toISOString() });
  return null;
}
