import { type Refusal, refuse } from "./refusal.ts";
import { isSingleLine } from "./text-render.ts";

/** A resident's contact and name fields as stored (docs/decisions.md "Resident profile fields"). */

/** A name: trimmed, not blank, no control characters. */
export function residentName(field: "first_name" | "last_name", raw: string): string | Refusal<"InvalidInput"> {
  const name = raw.trim();
  if (name.length === 0) return refuse("InvalidInput", `${field} must not be blank`, { field });
  if (!isSingleLine(name)) return refuse("InvalidInput", `${field} must not contain control characters`, { field });
  return name;
}

/**
 * A phone number in international format: `+`, then 7 to 15 digits (E.164), spaces, hyphens, dots and parentheses
 * allowed between them and dropped when stored. Empty means not given yet (personal info then stays incomplete).
 */
export function residentPhone(raw: string): string | Refusal<"InvalidInput"> {
  const compact = raw.trim().replace(/[\s\-.()]/g, "");
  if (compact === "") return "";
  if (!/^\+[1-9][0-9]{6,14}$/.test(compact)) {
    return refuse("InvalidInput", "phone must be in international format, e.g. +255 700 000 000", { field: "phone" });
  }
  return compact;
}

/** Personal info is complete when every contact and name field is filled in. */
export function personalInfoComplete(r: { email: string; first_name: string; last_name: string; phone: string }) {
  return [r.email, r.first_name, r.last_name, r.phone].every((v) => v.trim().length > 0);
}
