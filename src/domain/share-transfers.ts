import { createHash } from "node:crypto";
import type { ShareholderData, ShareTransferStatus } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { fromMicro, isUnitAmount, MAX_UNITS, toMicro } from "./units.ts";

/**
 * Share transfers (issue 17, docs/decisions.md "Share transfers and dividends"): the canonical terms the recipient
 * signs, the units a holder may still give, and the cap-table move. Units are counted in whole micro-units
 * (src/domain/units.ts) so the move is exact and the company total never changes.
 */

/** The most characters a reason carries. */
export const MAX_REASON = 1000;

/** The fields fixed at initiation that the recipient countersigns. */
export interface TransferTerms {
  transfer_id: string;
  company_id: string;
  from_resident_id: string;
  to_resident_id: string;
  units: number;
  reason: string | null;
  created_at: Date;
}

/**
 * The canonical transfer terms: the UTF-8 text of one JSON object, no whitespace, keys in exactly this order:
 * `{"type":"freezone.share_transfer.v1","transfer_id":…,"company_id":…,"from_resident_id":…,"to_resident_id":…,
 * "units":…,"reason":…,"created_at":…}`; units as a JSON number (ECMAScript shortest form, e.g. `10`, `2.5`),
 * reason a JSON string or `null`, created_at RFC 3339 UTC with milliseconds.
 */
export function canonicalTransferTerms(t: TransferTerms): string {
  return JSON.stringify({
    type: "freezone.share_transfer.v1",
    transfer_id: t.transfer_id,
    company_id: t.company_id,
    from_resident_id: t.from_resident_id,
    to_resident_id: t.to_resident_id,
    units: t.units,
    reason: t.reason,
    created_at: t.created_at.toISOString(),
  });
}

/** transfer_hash: lowercase hex SHA-256 of the canonical terms; the recipient signs its 32 raw bytes. */
export function transferHash(t: TransferTerms): string {
  return createHash("sha256").update(canonicalTransferTerms(t), "utf8").digest("hex");
}

/** The units a resident holds in the cap table (its shareholder row; cooperative members hold 0). */
export function unitsHeld(table: readonly ShareholderData[], residentId: string): number {
  const row = table.find((r) => r.resident_id === residentId && (r.role ?? "shareholder") === "shareholder");
  return row ? row.units : 0;
}

export interface TransferAsk {
  from: string;
  to: string;
  units: number;
  reason: string | undefined;
}

/** The checked ask (reason trimmed, blank = none) or the InvalidInput refusal. */
export function transferInput(ask: TransferAsk): { units: number; reason: string | null } | Refusal<"InvalidInput"> {
  const { units } = ask;
  if (!Number.isFinite(units) || units <= 0) return refuse("InvalidInput", "units must be above 0", { field: "units" });
  if (!isUnitAmount(units)) {
    return refuse("InvalidInput", `units are at most ${MAX_UNITS} with at most 6 decimals`, { field: "units" });
  }
  if (ask.from === ask.to) {
    return refuse("InvalidInput", "a holder cannot transfer to itself", { field: "to_resident_id" });
  }
  const reason = ask.reason?.trim() ?? "";
  if (reason.length > MAX_REASON) {
    return refuse("InvalidInput", `reason is longer than ${MAX_REASON} characters`, { field: "reason" });
  }
  return { units, reason: reason.length > 0 ? reason : null };
}

/** Whether the holder can commit `units` more, given what its outstanding (pending, approved) transfers commit. */
export function commitRefusal(held: number, outstanding: number, units: number): Refusal<"InsufficientShares"> | null {
  const free = toMicro(held) - toMicro(outstanding);
  if (toMicro(units) <= free) return null;
  return refuse("InsufficientShares", "the holder does not hold these units (pending transfers counted)", {
    held,
    committed: outstanding,
    requested: units,
  });
}

export interface Recipient {
  resident_id: string;
  name: string;
  email: string;
}

export interface CapTableMove {
  table: ShareholderData[];
  /** Units the giver holds after the move (0: its row left the table). */
  giverLeft: number;
  /** Whether the recipient held no units before. */
  recipientIsNew: boolean;
}

/**
 * Moves `units` from the giver's row to the recipient's (appended as a shareholder row when it has none); a giver
 * left with nothing leaves the table (shareholders hold units above 0). Every other row is kept as it is, so the
 * total of units is unchanged. InsufficientShares when the giver holds fewer.
 */
export function moveUnits(
  table: readonly ShareholderData[],
  from: string,
  to: Recipient,
  units: number,
): CapTableMove | Refusal<"InsufficientShares"> {
  const isHolding = (r: ShareholderData, id: string) =>
    r.resident_id === id && (r.role ?? "shareholder") === "shareholder";
  const held = unitsHeld(table, from);
  const left = toMicro(held) - toMicro(units);
  if (left < 0) {
    return refuse("InsufficientShares", "the giver no longer holds these units", { held, requested: units });
  }
  const recipientIsNew = !table.some((r) => isHolding(r, to.resident_id));
  const out: ShareholderData[] = [];
  for (const row of table) {
    if (isHolding(row, from)) {
      if (left > 0) out.push({ ...row, units: fromMicro(left) });
    } else if (isHolding(row, to.resident_id)) {
      out.push({ ...row, units: fromMicro(toMicro(row.units) + toMicro(units)) });
    } else {
      out.push(row);
    }
  }
  if (recipientIsNew) {
    out.push({ name: to.name, email: to.email, resident_id: to.resident_id, units, role: "shareholder" });
  }
  return { table: out, giverLeft: fromMicro(left), recipientIsNew };
}

export type TransferAction = "approve" | "complete" | "cancel" | "reject";

const FROM: Record<TransferAction, readonly ShareTransferStatus[]> = {
  approve: ["pending"],
  complete: ["approved"],
  cancel: ["pending", "approved"],
  reject: ["pending"],
};

/** The state each move ends in (also the word its refusal uses). */
const PAST: Record<TransferAction, ShareTransferStatus> = {
  approve: "approved",
  complete: "completed",
  cancel: "cancelled",
  reject: "rejected",
};

/** The states a move starts from (the conditional update's `where status in (...)`). */
export const transferMoveFrom = (action: TransferAction): readonly ShareTransferStatus[] => FROM[action];

/** The state a move ends in. */
export const transferMoveTo = (action: TransferAction): ShareTransferStatus => PAST[action];

/** InvalidState unless the transfer may make the move from `status`. */
export function transferMoveRefusal(
  status: ShareTransferStatus,
  action: TransferAction,
): Refusal<"InvalidState"> | null {
  if (FROM[action].includes(status)) return null;
  return refuse("InvalidState", `a ${status} transfer cannot be ${PAST[action]}`, { status });
}
