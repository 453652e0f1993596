import type { VerificationLinkStatus } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { isSingleLine } from "./text-render.ts";

/** Verification links (designed; the seed names the operations and VerificationLinkStatus, not the rules). */

export const LINK_HOURS = { min: 1, max: 8760 };
export const MAX_LABEL_CHARS = 100;
/** Links a user holds at most, whatever their status: the list stays bounded; delete_inactive_links makes room. */
export const MAX_LINKS_PER_USER = 100;

/** A new link is refused when the user already holds the most. */
export function linkQuotaRefusal(held: number): Refusal<"QuotaExceeded"> | null {
  if (held < MAX_LINKS_PER_USER) return null;
  return refuse("QuotaExceeded", `at most ${MAX_LINKS_PER_USER} links; delete inactive ones to make room`, {
    limit: MAX_LINKS_PER_USER,
    window: "links",
  });
}

/** When a link made now for `hours` expires; 1 hour to one year. */
export function linkExpiry(hours: number, now: Date): Date | Refusal<"InvalidInput"> {
  if (!Number.isInteger(hours) || hours < LINK_HOURS.min || hours > LINK_HOURS.max) {
    return refuse("InvalidInput", `expires_in_hours must be ${LINK_HOURS.min} to ${LINK_HOURS.max}`, {
      field: "expires_in_hours",
    });
  }
  return new Date(now.getTime() + hours * 3600 * 1000);
}

/** The owner's note as stored: trimmed, null when blank, at most 100 characters, no control characters. */
export function linkLabel(raw: string | undefined): string | null | Refusal<"InvalidInput"> {
  const label = raw?.trim() ?? "";
  if (label === "") return null;
  if ([...label].length > MAX_LABEL_CHARS) {
    return refuse("InvalidInput", `label must be at most ${MAX_LABEL_CHARS} characters`, { field: "label" });
  }
  if (!isSingleLine(label)) {
    return refuse("InvalidInput", "label must not contain control characters", { field: "label" });
  }
  return label;
}

/** A link's status now: a stored `active` link past its expiry reads `expired` (no sweep needed). */
export function linkStatus(
  link: { status: VerificationLinkStatus; expires_at: Date },
  now: Date,
): VerificationLinkStatus {
  return link.status === "active" && link.expires_at.getTime() <= now.getTime() ? "expired" : link.status;
}

/** Why a link cannot be used now, or null when it is active. */
export function linkUseRefusal(
  status: VerificationLinkStatus,
): Refusal<"Expired" | "AlreadyUsed" | "InvalidState"> | null {
  switch (status) {
    case "active":
      return null;
    case "expired":
      return refuse("Expired", "the verification link has expired");
    case "used":
      return refuse("AlreadyUsed", "the single-use verification link was used already");
    case "revoked":
      return refuse("InvalidState", "the verification link was revoked");
  }
}
