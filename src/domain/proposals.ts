import type { ProposalStatus, ResolutionKind, VoteValue, VotingModel } from "../../generated/types.ts";
import { boardMembers } from "./directors.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { fromMicro, toMicro } from "./units.ts";

/**
 * Proposal rules (issue 17, docs/decisions.md "Proposals, votes and resolutions (issue 17)"): who holds power at
 * creation, the voting window, the tally and the moves of the proposal state table. Pure: values in, values or
 * refusals out.
 */

export const MIN_VOTING_DAYS = 1;
export const MAX_VOTING_DAYS = 90;
export const MAX_TITLE_LENGTH = 200;
const DAY_MS = 24 * 3600 * 1000;

/**
 * How the for-share is compared with passing_threshold, per kind: `ordinary` and `board` pass with a for-share
 * strictly MORE than the threshold (simple majority), `special` with a for-share AT LEAST the threshold.
 */
export const PASSING_COMPARISON: Record<ResolutionKind, "more_than" | "at_least"> = {
  ordinary: "more_than",
  special: "at_least",
  board: "more_than",
};

export function creationRefusal(p: { title: string; votingDays: number }): Refusal<"InvalidInput"> | null {
  const title = p.title.trim();
  if (title.length === 0) return refuse("InvalidInput", "title must not be empty", { field: "title" });
  if (title.length > MAX_TITLE_LENGTH)
    return refuse("InvalidInput", `title must be at most ${MAX_TITLE_LENGTH} characters`, { field: "title" });
  if (!Number.isInteger(p.votingDays) || p.votingDays < MIN_VOTING_DAYS || p.votingDays > MAX_VOTING_DAYS) {
    return refuse("InvalidInput", `voting_days must be an integer from ${MIN_VOTING_DAYS} to ${MAX_VOTING_DAYS}`, {
      field: "voting_days",
    });
  }
  return null;
}

export function votingEndsAt(startsAt: Date, votingDays: number): Date {
  return new Date(startsAt.getTime() + votingDays * DAY_MS);
}

/** A cap-table row as the power snapshot reads it (ShareholderData). */
export interface CapTableEntry {
  resident_id: string | null;
  units: number;
  role: string | null;
}

/** An open CompanyRole as the power snapshot reads it. */
export interface OpenRole {
  subject_id: string;
  role: string;
}

export interface PowerSnapshot {
  /** Power of each subject that holds some (> 0). */
  powers: Map<string, number>;
  /** total_issued_power_snapshot: the quorum denominator. */
  total: number;
}

const MEMBER_ROLES = new Set(["founding_member", "platinum_member"]);

/**
 * The power at an instant: `board` proposals count the board (directors and founders, one each, per subject:
 * `boardMembers`); otherwise
 * `cooperative` voting counts open founding_member and platinum_member roles (one unit per role row), and
 * `standard` voting sums the cap table's shareholder units (rows whose role is null or `shareholder`); units on a
 * row without a resident id count in the total (they are issued) but nobody can vote them. Units are summed in
 * micro-units, so the total is exact (at most MAX_UNITS, src/domain/units.ts).
 */
export function powerSnapshot(
  kind: ResolutionKind,
  model: VotingModel,
  capTable: readonly CapTableEntry[],
  roles: readonly OpenRole[],
): PowerSnapshot {
  const powers = new Map<string, number>();
  const add = (subject: string, n: number) => powers.set(subject, (powers.get(subject) ?? 0) + n);
  if (kind === "board") {
    for (const subject of boardMembers(roles)) add(subject, 1);
    return { powers, total: powers.size };
  }
  if (model === "cooperative") {
    const members = roles.filter((r) => MEMBER_ROLES.has(r.role));
    for (const r of members) add(r.subject_id, 1);
    return { powers, total: members.length };
  }
  let total = 0;
  for (const row of capTable) {
    if (row.role !== null && row.role !== "shareholder") continue;
    if (!(row.units > 0)) continue;
    total += toMicro(row.units);
    if (row.resident_id) add(row.resident_id, toMicro(row.units));
  }
  for (const [subject, micro] of powers) powers.set(subject, fromMicro(micro));
  return { powers, total: fromMicro(total) };
}

export interface VoteCheck {
  status: ProposalStatus;
  now: Date;
  votingStartsAt: Date;
  votingEndsAt: Date;
  value: VoteValue;
  allowAbstention: boolean;
  /** The voter's power at the snapshot; 0 or null when it held none. */
  power: number | null;
}

/** A vote is taken while the proposal is `active` and `voting_starts_at <= now < voting_ends_at` (end exclusive). */
export function voteRefusal(v: VoteCheck): Refusal<"InvalidState" | "InvalidInput" | "Forbidden"> | null {
  if (v.status !== "active")
    return refuse("InvalidState", `the proposal is ${v.status}, not active`, { status: v.status });
  if (v.now.getTime() < v.votingStartsAt.getTime() || v.now.getTime() >= v.votingEndsAt.getTime()) {
    return refuse("InvalidState", "the voting window is closed", { voting_ends_at: v.votingEndsAt.toISOString() });
  }
  if (v.value === "abstain" && !v.allowAbstention)
    return refuse("InvalidInput", "this proposal does not accept abstentions", { field: "vote_value" });
  if (v.power === null || !(v.power > 0))
    return refuse("Forbidden", "the voter held no voting power when the proposal was created");
  return null;
}

export interface TallyInput {
  kind: ResolutionKind;
  snapshot: number;
  /** Whole percentages, 0 to 100 (Proposal.quorum_percentage, passing_threshold). */
  quorumPercentage: number;
  passingThreshold: number;
  votesFor: number;
  votesAgainst: number;
  votesAbstain: number;
}

export interface TallyOutcome {
  totalVoted: number;
  turnoutPercentage: number;
  forPercentage: number;
  quorumReached: boolean;
  passed: boolean;
  status: "passed" | "rejected";
}

/** A tally figure (units with at most 6 decimals, or a count) as exact micro-units. */
const exact = (value: number): bigint => BigInt(toMicro(value));

/**
 * The tally. Quorum: total_voted / snapshot x 100 >= quorum_percentage (abstentions count). Passing: the for-share
 * of for + against (abstentions excluded) compared with passing_threshold per PASSING_COMPARISON; nobody for or
 * against never passes. Both are compared by cross-multiplication in BigInt micro-units (quorum and threshold are
 * whole percentages), so the decision is exact for every value the spec admits, 50 % and 75 % edges included;
 * only the percentages answered are rounded (doubles).
 */
export function tally(t: TallyInput): TallyOutcome {
  const votesFor = exact(t.votesFor);
  const decided = votesFor + exact(t.votesAgainst);
  const voted = decided + exact(t.votesAbstain);
  const snapshot = exact(t.snapshot);
  const quorumReached = voted * 100n >= BigInt(t.quorumPercentage) * snapshot && (snapshot > 0n || voted > 0n);
  const forScaled = votesFor * 100n;
  const bar = BigInt(t.passingThreshold) * decided;
  const shareMet = decided > 0n && (PASSING_COMPARISON[t.kind] === "at_least" ? forScaled >= bar : forScaled > bar);
  const passed = quorumReached && shareMet;
  const totalVoted = fromMicro(Number(voted));
  return {
    totalVoted,
    turnoutPercentage: t.snapshot > 0 ? (totalVoted / t.snapshot) * 100 : 0,
    forPercentage: decided > 0n ? (Number(votesFor) / Number(decided)) * 100 : 0,
    quorumReached,
    passed,
    status: passed ? "passed" : "rejected",
  };
}

/**
 * A tally needs an `active` proposal, and either the window over (now >= voting_ends_at) or every unit of the
 * snapshot power voted (the outcome can no longer change).
 */
export function tallyRefusal(p: {
  status: ProposalStatus;
  now: Date;
  votingEndsAt: Date;
  snapshot: number;
  totalVoted: number;
}): Refusal<"InvalidState"> | null {
  if (p.status !== "active")
    return refuse("InvalidState", `the proposal is ${p.status}, not active`, { status: p.status });
  if (p.now.getTime() < p.votingEndsAt.getTime() && toMicro(p.totalVoted) < toMicro(p.snapshot)) {
    return refuse("InvalidState", "the voting window is still open and voting power is still unvoted", {
      voting_ends_at: p.votingEndsAt.toISOString(),
    });
  }
  return null;
}

export function executeRefusal(status: ProposalStatus): Refusal<"InvalidState"> | null {
  if (status === "passed") return null;
  return refuse("InvalidState", `only a passed proposal is executed; this one is ${status}`, { status });
}

/** When an untallied `active` proposal expires: expiryHours after voting_ends_at. */
export function expiresAt(votingEnds: Date, expiryHours: number): Date {
  return new Date(votingEnds.getTime() + expiryHours * 3600 * 1000);
}

/** RES-<year>-<4 digits> (more digits past 9999). */
export function formatResolutionNumber(year: number, n: number): string {
  return `RES-${year}-${String(n).padStart(4, "0")}`;
}
