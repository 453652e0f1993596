import type { Address, CoopDueProcessExecutors, CryptoWallet } from "../../generated/types.ts";
import { isValidEmail, normalizeEmail } from "./email.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { residentPhone } from "./resident-profile.ts";

/**
 * A company's editable profile fields as stored (companyservice.create and update; docs/decisions.md "Company
 * registration (issue 16)"): text trimmed; contact email by the account grammar, lower-cased; phone in international
 * format; website and logo absolute http(s) URLs (stored, never fetched by the server); blank optional text clears.
 */

export interface ProfileInput {
  description?: string;
  address?: Address;
  email?: string | null;
  phone?: string | null;
  website?: string | null;
  logo_url?: string | null;
  industry?: string | null;
  tax_id?: string;
  crypto_wallets?: CryptoWallet[];
  auto_renewal?: boolean;
}

export type Profile = { -readonly [K in keyof ProfileInput]: ProfileInput[K] };

type Bad = Refusal<"InvalidInput">;

const bad = (field: string, message: string): Bad => refuse("InvalidInput", message, { field });

function url(field: string, raw: string | null): string | null | Bad {
  if (raw === null || raw.trim() === "") return null;
  const value = raw.trim();
  try {
    const parsed = new URL(value);
    if ((parsed.protocol === "https:" || parsed.protocol === "http:") && value.length <= 2048) return value;
  } catch {
    // not a URL: refused below
  }
  return bad(field, `${field} must be an absolute http(s) URL of at most 2048 characters`);
}

function address(a: Address): Address | Bad {
  const line1 = a.line1.trim();
  const city = a.city.trim();
  const country = a.country.trim();
  if (!line1 || !city || !country) return bad("address", "address needs line1, city and country");
  const opt = (v: string | null) => (v === null || v.trim() === "" ? null : v.trim());
  return { line1, line2: opt(a.line2), city, region: opt(a.region), postal_code: opt(a.postal_code), country };
}

function wallets(list: CryptoWallet[]): CryptoWallet[] | Bad {
  const out: CryptoWallet[] = [];
  for (const w of list) {
    const trimmed = { ...w, currency: w.currency.trim(), network: w.network.trim(), address: w.address.trim() };
    if (!trimmed.currency || !trimmed.network || !trimmed.address) {
      return bad("crypto_wallets", "a wallet needs currency, network and address");
    }
    out.push(trimmed);
  }
  return out;
}

const isBad = (v: unknown): v is Bad => typeof v === "object" && v !== null && "refusal" in v;

/** The given fields as stored, or the refusal of the first bad one; absent fields stay absent. */
export function profileChanges(input: ProfileInput): Profile | Bad {
  const out: Profile = {};
  if (input.description !== undefined) out.description = input.description.trim();
  if (input.tax_id !== undefined) out.tax_id = input.tax_id.trim();
  if (input.auto_renewal !== undefined) out.auto_renewal = input.auto_renewal;
  if (input.industry !== undefined) out.industry = input.industry?.trim() || null;
  if (input.address !== undefined) {
    const a = address(input.address);
    if (isBad(a)) return a;
    out.address = a;
  }
  if (input.email !== undefined) {
    const email = input.email === null || input.email.trim() === "" ? null : normalizeEmail(input.email);
    if (email !== null && !isValidEmail(email)) return bad("email", "email is not a valid address");
    out.email = email;
  }
  if (input.phone !== undefined) {
    const phone = input.phone === null ? "" : residentPhone(input.phone);
    if (isBad(phone)) return phone;
    out.phone = phone === "" ? null : phone;
  }
  for (const field of ["website", "logo_url"] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const checked = url(field, value);
    if (isBad(checked)) return checked;
    out[field] = checked;
  }
  if (input.crypto_wallets !== undefined) {
    const w = wallets(input.crypto_wallets);
    if (isBad(w)) return w;
    out.crypto_wallets = w;
  }
  return out;
}

/**
 * due_process_executors is a cooperative's (seed 000 ZoneCompany: "cooperatives only"): given (a set, or null to
 * clear it) for a company, it is refused, whether at registration, in a draft or in an update.
 */
export function executorsRefusal(
  coop: boolean,
  executors: CoopDueProcessExecutors | null | undefined,
): Refusal<"InvalidInput"> | null {
  if (executors === undefined || coop) return null;
  return bad("due_process_executors", "due_process_executors is for cooperatives only");
}
