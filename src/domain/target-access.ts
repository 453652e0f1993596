import type { ResidentStatus } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { type ResidentAction, statusRefusal } from "./resident-status.ts";

/**
 * The company role rule of `x-target` (docs/authorization.md "Company operations") with the resident status gate
 * (docs/decisions.md "Resident status"): pure, the facts loaded by src/rpc/target.ts.
 */

/** A role the caller holds in the company, through a resident it owns (or as the company's owner), with its status. */
export interface HeldRole {
  role: string;
  /** The holder's status as of now; null for an owner with no owning resident. */
  status: ResidentStatus | null;
}

/** `member` is any current role; other roles must be held (a founder may act as director). */
export function satisfiesCompanyRole(held: readonly string[], required: string): boolean {
  if (required === "member") return held.length > 0;
  if (held.includes(required)) return true;
  return required === "director" && held.includes("founder");
}

export type Standing =
  | { kind: "allowed" }
  /** No current role at all: NotFound (existence does not leak). */
  | { kind: "none" }
  /** Roles short of the one needed: Forbidden. */
  | { kind: "short" }
  /** The role is held, but only through residents whose status does not allow acting: InvalidState. */
  | { kind: "inactive"; refusal: Refusal<"InvalidState"> };

/**
 * The caller's standing for `required`. A call that acts (a write) counts only roles whose holder may `act`: a
 * suspended, expired or pending director still reads the company's records, but decides nothing in it.
 */
export function companyStanding(held: readonly HeldRole[], required: string, acting: boolean): Standing {
  if (held.length === 0) return { kind: "none" };
  if (
    !satisfiesCompanyRole(
      held.map((h) => h.role),
      required,
    )
  )
    return { kind: "short" };
  if (!acting) return { kind: "allowed" };
  const able = held.filter((h) => h.status === null || statusRefusal(h.status, "act") === null);
  if (
    satisfiesCompanyRole(
      able.map((h) => h.role),
      required,
    )
  )
    return { kind: "allowed" };
  const blocked = held.find((h) => h.status !== null && statusRefusal(h.status, "act") !== null);
  return {
    kind: "inactive",
    refusal: statusRefusal(blocked?.status ?? "pending", "act") ?? refuse("InvalidState", ""),
  };
}

/**
 * `x-acts-as`: the refusal when none of the residents' statuses allows `action` (with the first one's status), or
 * null. No resident at all is not refused here: the caller binding and the handler answer for a missing resident.
 */
export function actingRefusal(
  statuses: readonly ResidentStatus[],
  action: ResidentAction,
): Refusal<"InvalidState"> | null {
  if (statuses.length === 0) return null;
  if (statuses.some((s) => statusRefusal(s, action) === null)) return null;
  return statusRefusal(statuses[0] as ResidentStatus, action);
}
