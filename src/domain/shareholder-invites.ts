import type { ShareholderData } from "../../generated/types.ts";
import { isValidEmail, normalizeEmail } from "./email.ts";
import { type Refusal, refuse } from "./refusal.ts";
import {
  CAP_TABLE_UNITS_RULE,
  fromMicro,
  isUnitAmount,
  MAX_UNITS,
  toMicro,
  UNITS_RULE,
  withinUnitMaximum,
} from "./units.ts";

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
export function inviteInput(
  raw: {
    invitee_email: string;
    proposed_units: number;
    message?: string | undefined;
  },
  cooperative = false,
): InviteInput | Refusal<"InvalidInput"> {
  const email = normalizeEmail(raw.invitee_email);
  if (!isValidEmail(email))
    return refuse("InvalidInput", "invitee_email is not a valid address", { field: "invitee_email" });
  if (cooperative && raw.proposed_units !== 0)
    return refuse("InvalidInput", "a cooperative member holds no units: proposed_units must be 0", {
      field: "proposed_units",
    });
  if (!cooperative && (!(raw.proposed_units > 0) || !isUnitAmount(raw.proposed_units)))
    return refuse("InvalidInput", `proposed_units must be above 0; ${UNITS_RULE}`, { field: "proposed_units" });
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

export interface Holder {
  residentId: string;
  name: string;
  email: string;
}

/**
 * The role an accepted invitation opens: `shareholder` in a company; in a cooperative `founding_member`, the
 * cooperative's membership role (seed 000 counts it, with platinum_member, in cooperative voting power; a
 * `shareholder` role there would be a member nobody counts). A cap-table row carries the same role.
 */
export function invitedRole(cooperative: boolean): "shareholder" | "founding_member" {
  return cooperative ? "founding_member" : "shareholder";
}

/**
 * The cap table after an accepted invitation issues `units` to the holder: added to its row of `role` (shareholder
 * in a company, founding_member with 0 units in a cooperative), or a new row. Issued units are new units, so the
 * company's total grows; InvalidState when it would pass MAX_UNITS.
 */
export function issueUnits(
  table: readonly ShareholderData[],
  holder: Holder,
  units: number,
  role: "shareholder" | "founding_member" = "shareholder",
): ShareholderData[] | Refusal<"InvalidState"> {
  const out = [...table];
  const at = out.findIndex((s) => s.resident_id === holder.residentId && (s.role ?? "shareholder") === role);
  const held = at >= 0 ? out[at] : undefined;
  if (held) out[at] = { ...held, units: fromMicro(toMicro(held.units) + toMicro(units)) };
  else out.push({ name: holder.name, email: holder.email, resident_id: holder.residentId, units, role });
  if (!withinUnitMaximum(out)) return refuse("InvalidState", CAP_TABLE_UNITS_RULE, { max_units: MAX_UNITS });
  return out;
}
