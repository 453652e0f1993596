import type {
  CompanyRoleKind,
  EntityDraftStatus,
  EntityDraftType,
  InvitationRole,
  ShareholderData,
  ShareholderInviteStatus,
} from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { CAP_TABLE_UNITS_RULE, isUnitAmount, UNITS_RULE, withinUnitMaximum } from "./units.ts";

/**
 * The EntityDraft state machine (seed 000 "Entity draft") and the rules of its operations, pure: values in, values or
 * a Refusal out (docs/decisions.md "Entity drafts (issue 16)").
 */

/** Default signature deadline: 30 days after creation (seed 001 limits). */
export const DEFAULT_DEADLINE_DAYS = 30;
const DAY_MS = 86_400_000;

export function defaultDeadline(now: Date): Date {
  return new Date(now.getTime() + DEFAULT_DEADLINE_DAYS * DAY_MS);
}

/**
 * A deadline has passed from its own instant on (`now >= deadline`): at the deadline an invitation can no longer be
 * accepted and the sweep expires the draft, so "expires at" means "no longer valid at".
 */
export function deadlinePassed(deadline: Date, now: Date): boolean {
  return now.getTime() >= deadline.getTime();
}

/** The moves of the table, by operation: the states each may start from. */
export const DRAFT_MOVES = {
  update: ["draft"],
  finalize: ["draft"],
  reopen: ["pending_signatures"],
  cancel: ["draft", "pending_signatures"],
  expire: ["draft", "pending_signatures"],
  complete: ["pending_signatures"],
  pay: ["all_signed"],
} as const satisfies Record<string, readonly EntityDraftStatus[]>;

export type DraftMove = keyof typeof DRAFT_MOVES;

/** InvalidState unless `status` is one the move starts from. */
export function moveRefusal(move: DraftMove, status: EntityDraftStatus): Refusal<"InvalidState"> | null {
  const from: readonly EntityDraftStatus[] = DRAFT_MOVES[move];
  if (from.includes(status)) return null;
  return refuse("InvalidState", `a ${status} draft cannot be ${MOVE_WORDS[move]}`, { status, allowed: [...from] });
}

const MOVE_WORDS: Record<DraftMove, string> = {
  update: "edited",
  finalize: "finalized",
  reopen: "reopened",
  cancel: "cancelled",
  expire: "expired",
  complete: "completed",
  pay: "paid",
};

/** finalize_draft: the state first (a cancelled or expired draft is InvalidState), then the deadline (Expired). */
export function finalizeRefusal(
  status: EntityDraftStatus,
  deadline: Date,
  now: Date,
): Refusal<"InvalidState" | "Expired"> | null {
  const state = moveRefusal("finalize", status);
  if (state) return state;
  if (deadlinePassed(deadline, now))
    return refuse("Expired", "the signature deadline has passed", { signature_deadline: deadline.toISOString() });
  return null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAX_CAP_TABLE_ROWS = 100;

/** Lower-cased, trimmed email: how cap-table emails are compared and stored as cap_table_email. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The cap table of a draft: 1 to 100 rows, each with a name, a well-formed email (distinct across rows, without
 * case), units of 0 or more with at most 6 decimals, at most MAX_UNITS in all (src/domain/units.ts); companies give every shareholder row units above 0, cooperatives' founding members
 * hold 0 units. The rows as stored (name and email trimmed, role filled: shareholder, founding_member for cooperatives).
 */
export function capTable(
  entityType: EntityDraftType,
  rows: ShareholderData[],
): ShareholderData[] | Refusal<"InvalidInput"> {
  const bad = (i: number, message: string) => refuse("InvalidInput", message, { field: `shareholders[${i}]` });
  if (rows.length === 0 || rows.length > MAX_CAP_TABLE_ROWS)
    return refuse("InvalidInput", `the cap table needs 1 to ${MAX_CAP_TABLE_ROWS} rows`, { field: "shareholders" });
  const seen = new Set<string>();
  const out: ShareholderData[] = [];
  for (const [i, row] of rows.entries()) {
    const email = normalEmail(row.email);
    if (row.name.trim() === "") return bad(i, "every cap-table row needs a name");
    if (!EMAIL.test(email)) return bad(i, "every cap-table row needs a valid email");
    if (seen.has(email)) return bad(i, `the email ${email} appears twice in the cap table`);
    seen.add(email);
    if (!isUnitAmount(row.units)) return bad(i, UNITS_RULE);
    const role: InvitationRole = row.role ?? (entityType === "cooperative" ? "founding_member" : "shareholder");
    if (entityType === "cooperative" && row.units !== 0) return bad(i, "cooperative founding members hold 0 units");
    if (entityType === "company" && role === "shareholder" && row.units <= 0)
      return bad(i, "a shareholder row needs units above 0");
    if (entityType === "company" && role === "founding_member") return bad(i, "founding_member is a cooperative role");
    out.push({ name: row.name.trim(), email, resident_id: row.resident_id, units: row.units, role });
  }
  if (!withinUnitMaximum(out)) return refuse("InvalidInput", CAP_TABLE_UNITS_RULE, { field: "shareholders" });
  return out;
}

/** The cap-table row of the creator (by email or resident id), which needs no invitation; -1 when there is none. */
export function creatorRowIndex(rows: ShareholderData[], creatorEmail: string, creatorDrId: string): number {
  const email = normalEmail(creatorEmail);
  return rows.findIndex((r) => normalEmail(r.email) === email || r.resident_id === creatorDrId);
}

/**
 * The instant a new round of invitations starts: now, or just after the latest invitation of an earlier round, so a
 * round (invitations with invited_at >= finalized_at) never takes in an earlier one's.
 */
export function roundStart(earlierInvitedAt: Date[], now: Date): Date {
  const latest = Math.max(0, ...earlierInvitedAt.map((d) => d.getTime()));
  return new Date(Math.max(now.getTime(), latest + 1));
}

/** update_draft: an empty edit and a deadline not in the future are InvalidInput. */
export function editRefusal(
  edit: { fields: number; deadline: Date | null },
  now: Date,
): Refusal<"InvalidInput"> | null {
  if (edit.fields === 0) return refuse("InvalidInput", "an edit needs at least one field");
  if (edit.deadline !== null && edit.deadline.getTime() <= now.getTime())
    return refuse("InvalidInput", "signature_deadline must be in the future", { field: "signature_deadline" });
  return null;
}

/** What accept_invitation checks, in this order: version, expiry, then the states of invitation and draft. */
export function acceptRefusal(
  invitation: { status: ShareholderInviteStatus; document_version: number; expires_at: Date },
  draft: { status: EntityDraftStatus; document_version: number },
  now: Date,
): Refusal<"VersionMismatch" | "Expired" | "InvalidState"> | null {
  if (invitation.document_version !== draft.document_version)
    return refuse("VersionMismatch", "the draft was edited since this invitation: sign its current version", {
      invitation_version: invitation.document_version,
      draft_version: draft.document_version,
    });
  if (deadlinePassed(invitation.expires_at, now)) return refuse("Expired", "the invitation has expired");
  if (invitation.status !== "pending")
    return refuse("InvalidState", `the invitation is ${invitation.status}`, { status: invitation.status });
  if (draft.status !== "pending_signatures")
    return refuse("InvalidState", `the draft is ${draft.status}`, { status: draft.status });
  return null;
}

/** decline_invitation: only a pending invitation; the reason trimmed (blank: none), at most 1,000 characters. */
export function declineRefusal(
  status: ShareholderInviteStatus,
  reason: string | undefined,
): Refusal<"InvalidState" | "InvalidInput"> | { reason: string | null } {
  if (status !== "pending") return refuse("InvalidState", `the invitation is ${status}`, { status });
  const trimmed = reason?.trim() ?? "";
  if (trimmed.length > 1000) return refuse("InvalidInput", "reason is at most 1,000 characters", { field: "reason" });
  return { reason: trimmed === "" ? null : trimmed };
}

export type NextStep = "await_signatures" | "pay" | "await_activation" | "done" | "none";

/** What a draft needs next, by status (CompletionResult.next_step). */
export function nextStep(status: EntityDraftStatus): NextStep {
  const steps: Record<EntityDraftStatus, NextStep> = {
    draft: "await_signatures",
    pending_signatures: "await_signatures",
    all_signed: "pay",
    paid: "await_activation",
    active: "done",
    cancelled: "none",
    expired: "none",
  };
  return steps[status];
}

/** check_completion moves a pending draft when every required signature is in and none was declined. */
export function completes(
  draft: { status: EntityDraftStatus; completed_signatures: number; total_required_signatures: number },
  declined: number,
): boolean {
  return (
    draft.status === "pending_signatures" &&
    declined === 0 &&
    draft.completed_signatures === draft.total_required_signatures
  );
}

/** The CompanyRole a cap-table row's holder gets at activation. */
export function roleOfRow(row: ShareholderData, entityType: EntityDraftType): CompanyRoleKind {
  return row.role ?? (entityType === "cooperative" ? "founding_member" : "shareholder");
}
