/**
 * The sanitized argument summary of the MCP call log and approvals: no passwords, keys, tokens, secrets or card
 * data, whatever the field is called; long values cut. Pure.
 */

const SECRET_NAME =
  /pass(word|phrase)?|secret|token|api_?key|private|credential|card|cvv|cvc|security_answer|backup_code|totp|otp|mfa_code|^pin$|_pin$|^pan$/i;
const SECRET_VALUE = /^(fz_[ur]_|fzs_|fzr_|sk_|pk_live_)/;
const CARD_LIKE = /^[\d -]{13,23}$/;
const MAX_STRING = 200;
export const MAX_SUMMARY = 2000;
export const REDACTED = "[redacted]";

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function looksLikeCard(value: string): boolean {
  if (!CARD_LIKE.test(value)) return false;
  const digits = value.replace(/[ -]/g, "");
  return digits.length >= 13 && digits.length <= 19 && luhn(digits);
}

/** Secrets replaced by REDACTED at any depth; with `cut`, long strings and arrays shortened too (the summary). */
function clean(value: unknown, depth: number, cut: boolean): unknown {
  if (typeof value === "string") {
    if (SECRET_VALUE.test(value) || looksLikeCard(value)) return REDACTED;
    return cut && value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}...` : value;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth > 8) return "[nested]";
  if (Array.isArray(value)) return (cut ? value.slice(0, 20) : value).map((item) => clean(item, depth + 1, cut));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_NAME.test(key) ? REDACTED : clean(item, depth + 1, cut);
  }
  return out;
}

/** The arguments in full with every secret field redacted: what an API key reads of its owner's approval. */
export function redactSecrets(args: unknown): unknown {
  return clean(args ?? {}, 0, false);
}

export function summarizeArguments(args: unknown): string {
  const text = JSON.stringify(clean(args ?? {}, 0, true)) ?? "{}";
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY)}...` : text;
}
