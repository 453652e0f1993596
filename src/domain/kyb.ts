import type { ExternalCompanyRegistrationRow } from "../../generated/entities.ts";
import type { KybStatus } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Business verification of outside companies (seed 000 ExternalCompanyRegistration, KybStatus): field rules, the
 * kyb_status moves (docs/decisions.md "KYB of external companies") and the hard gate. Pure: no database, no clock.
 */

export interface KybFields {
  legal_name: string;
  jurisdiction: string;
  registration_number: string;
  documents: string[];
}

/** Trimmed (jurisdiction upper-cased, as ISO codes are), none blank. */
export function kybFields(raw: KybFields): KybFields | Refusal<"InvalidInput"> {
  const fields: KybFields = {
    legal_name: raw.legal_name.trim(),
    jurisdiction: raw.jurisdiction.trim().toUpperCase(),
    registration_number: raw.registration_number.trim(),
    documents: raw.documents.map((d) => d.trim()),
  };
  for (const name of ["legal_name", "jurisdiction", "registration_number"] as const) {
    if (fields[name].length === 0) return refuse("InvalidInput", `${name} must not be blank`, { field: name });
  }
  if (fields.documents.some((d) => d.length === 0)) {
    return refuse("InvalidInput", "documents must not contain a blank entry", { field: "documents" });
  }
  return fields;
}

export type KybMove = "start_check" | "approve" | "reject";

const FROM: Record<KybMove, readonly KybStatus[]> = {
  start_check: ["pending"],
  approve: ["pending", "in_progress"],
  reject: ["pending", "in_progress"],
};
const TO: Record<KybMove, KybStatus> = { start_check: "in_progress", approve: "approved", reject: "rejected" };

/** The status `move` leads to from `from`, or InvalidState. */
export function nextKybStatus(from: KybStatus, move: KybMove): KybStatus | Refusal<"InvalidState"> {
  return FROM[move].includes(from)
    ? TO[move]
    : refuse("InvalidState", `a registration in kyb_status ${from} cannot move by ${move}`, { kyb_status: from });
}

/** The statuses `move` may leave (for the conditional update). */
export function kybMoveSources(move: KybMove): readonly KybStatus[] {
  return FROM[move];
}

/** With the hard gate on, only a provider verdict of `approved` lets an administrator approve. */
export function hardGateRefusal(
  row: Pick<ExternalCompanyRegistrationRow, "kyb_provider_status">,
  hardGate: boolean,
): Refusal<"InvalidState"> | null {
  if (!hardGate || row.kyb_provider_status === "approved") return null;
  return refuse("InvalidState", "the provider has not approved this company and the KYB hard gate is on", {
    kyb_provider_status: row.kyb_provider_status,
  });
}

/** A verdict is recorded unless a newer one is recorded already (deliveries may arrive out of order). */
export function recordsVerdict(recordedAt: Date | null, checkedAt: Date): boolean {
  return recordedAt === null || checkedAt.getTime() >= recordedAt.getTime();
}
