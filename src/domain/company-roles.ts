import type { Refusal } from "./refusal.ts";

/**
 * CompanyRole rules (issue 16): rows are append-only windows [valid_from, valid_to); a list is taken at an instant
 * given as Unix seconds (0 = now); a subject id with a company prefix (`-Y` company, `-P` cooperative) is a corporate
 * shareholder.
 */

/** Latest instant accepted: 9999-12-31T23:59:59Z (later instants are not dates the database stores). */
export const MAX_AS_OF_EPOCH = 253_402_300_799;

/** The instant `as_of_epoch` names (0 = now), or the refusal of a negative, fractional or too large value. */
export function instantOf(asOfEpoch: number, now: Date): Date | Refusal<"InvalidInput"> {
  if (!Number.isInteger(asOfEpoch) || asOfEpoch < 0 || asOfEpoch > MAX_AS_OF_EPOCH) {
    return {
      refusal: "InvalidInput",
      message: `as_of_epoch must be an integer from 0 to ${MAX_AS_OF_EPOCH}`,
      details: { field: "as_of_epoch" },
    };
  }
  return asOfEpoch === 0 ? now : new Date(asOfEpoch * 1000);
}

const CORPORATE_ID = /^[A-Z]+-\d{4}-[YP]\d{6}$/;

/** Whether a role subject is a company (corporate shareholder) rather than a resident. */
export function isCorporateSubject(subjectId: string): boolean {
  return CORPORATE_ID.test(subjectId);
}

const FORMATTED_ID = /^[A-Z]+-\d{4}-(RA|Y|P)\d{6}$/;

/** Whether `id` is a formatted resident, company or cooperative id (API.md "Values"). */
export function isFormattedId(id: string): boolean {
  return FORMATTED_ID.test(id);
}

/**
 * CompanyRole.created_by, "the formatted id of the writer" (seed 000): the resident who acted; where no resident
 * acts (an administrator's session, a partner's or a registration request's company), the company's own formatted
 * id, since the registry wrote the row for the company (the AdminAction or the owner pair says who asked).
 * docs/decisions.md "Small companies and smaller slips (issue 30)".
 */
export function roleWriter(actingResidentId: string | null, companyId: string): string {
  return actingResidentId ?? companyId;
}

/** Whether a window [from, to) contains the instant. */
export function inEffect(window: { valid_from: Date; valid_to: Date | null }, at: Date): boolean {
  return window.valid_from.getTime() <= at.getTime() && (window.valid_to === null || window.valid_to > at);
}
