/**
 * The DocumentAudience visibility rule (seed 000 "Companies, roles, visibility, formation"): a subject may view a
 * document when some CompanyRole of the subject, for the document's company, has a validity window overlapping the
 * document's relevant window and a classification_scope intersecting the document's classification. Windows are
 * half-open ([from, to), a null end is open): a role that ends exactly when the document becomes relevant, or
 * starts exactly when its window closes, does not overlap it. Past holders keep view for their period; a joiner
 * after the window closed gains none; no audience row means no view. Audience rows are append-only: a change is a
 * new row naming the row it `supersedes`, and the rule reads the newest row no other row supersedes.
 */

import type { DocumentKind } from "../../generated/types.ts";

/**
 * Each kind's relevant window from the instant its record is made (docs/decisions.md "Visibility of company records
 * (issue 30)"): `issue` is the instant itself, [made, made + 1 ms), so the roles held when the record was made see it
 * (past holders keep it, later joiners never gain it); `live` is open from that instant until something closes it
 * (a deletion), so every holder from then on sees it. Only business documents, the company's standing registry
 * record, are live.
 */
export const RELEVANT_WINDOW: Record<DocumentKind, "issue" | "live"> = {
  business_document: "live",
  contract: "issue",
  invoice: "issue",
  inbox_message: "issue",
  proposal: "issue",
  resolution: "issue",
  tax_filing: "issue",
  tax_document: "issue",
  financial_report: "issue",
  expense: "issue",
  share_transfer: "issue",
  dividend: "issue",
};

/** The smallest non-empty half-open window: one millisecond, the clock's resolution. */
const INSTANT_MS = 1;

/** The relevant window of a record of `kind` made at `at`: its exclusive end, null for an open (live) window. */
export function relevantWindowEnd(kind: DocumentKind, at: Date): Date | null {
  return RELEVANT_WINDOW[kind] === "issue" ? new Date(at.getTime() + INSTANT_MS) : null;
}

/** What the rule reads of a DocumentAudience row. */
export interface AudienceWindow {
  sid: string;
  company_id: string;
  classification: readonly string[];
  document_relevant_from: Date;
  document_relevant_to: Date | null;
  supersedes: string | null;
}

/** What the rule reads of a CompanyRole row. */
export interface RoleWindow {
  sid: string;
  company_id: string;
  subject_id: string;
  valid_from: Date;
  valid_to: Date | null;
  classification_scope: readonly string[];
}

export type VisibilityReason = "role_overlap" | "no_audience_row" | "no_matching_role";

export interface VisibilityDecision {
  canView: boolean;
  reason: VisibilityReason;
  /** The audience row evaluated (null when the document has none). */
  audience: AudienceWindow | null;
  /** The role that granted view (null when none did). */
  role: RoleWindow | null;
}

/**
 * The audience row in force: among the rows no other row supersedes, the newest (sids are UUIDv7, so the greatest
 * sid is the latest write). Null for no rows.
 */
export function currentAudience<A extends AudienceWindow>(rows: readonly A[]): A | null {
  const superseded = new Set(rows.map((r) => r.supersedes).filter((s): s is string => s !== null));
  let newest: A | null = null;
  for (const row of rows) {
    if (superseded.has(row.sid)) continue;
    if (newest === null || row.sid > newest.sid) newest = row;
  }
  return newest;
}

/**
 * Whether two half-open windows [aFrom, aTo) and [bFrom, bTo) share an instant (a null end is open). An empty
 * window (from equal to its end) shares none.
 */
export function windowsOverlap(aFrom: Date, aTo: Date | null, bFrom: Date, bTo: Date | null): boolean {
  const a0 = aFrom.getTime();
  const b0 = bFrom.getTime();
  const a1 = aTo === null ? Number.POSITIVE_INFINITY : aTo.getTime();
  const b1 = bTo === null ? Number.POSITIVE_INFINITY : bTo.getTime();
  if (a1 <= a0 || b1 <= b0) return false;
  return a0 < b1 && b0 < a1;
}

/** Whether two sets of audience tiers share a tier. */
export function tiersIntersect(scope: readonly string[], classification: readonly string[]): boolean {
  return scope.some((tier) => classification.includes(tier));
}

/** Whether this role grants view of the document the audience row describes. */
export function roleGrantsView(role: RoleWindow, audience: AudienceWindow): boolean {
  return (
    role.company_id === audience.company_id &&
    windowsOverlap(role.valid_from, role.valid_to, audience.document_relevant_from, audience.document_relevant_to) &&
    tiersIntersect(role.classification_scope, audience.classification)
  );
}

/**
 * The decision for any of `subjectIds` (the subjects one caller may speak for): view when some role of one of them
 * grants it. `audienceRows` are every row of the document (the current one is picked here); `roles` may hold rows of
 * other subjects and companies, which never count.
 */
export function decideVisibility(
  audienceRows: readonly AudienceWindow[],
  roles: readonly RoleWindow[],
  subjectIds: readonly string[],
): VisibilityDecision {
  const audience = currentAudience(audienceRows);
  if (audience === null) return { canView: false, reason: "no_audience_row", audience: null, role: null };
  const subjects = new Set(subjectIds);
  const granting = roles
    .filter((r) => subjects.has(r.subject_id) && roleGrantsView(r, audience))
    .sort((a, b) => (a.sid < b.sid ? 1 : a.sid > b.sid ? -1 : 0))[0];
  if (granting === undefined) return { canView: false, reason: "no_matching_role", audience, role: null };
  return { canView: true, reason: "role_overlap", audience, role: granting };
}
