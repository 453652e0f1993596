import { isCommonPassword } from "./common-passwords.ts";

/**
 * API.md password rules: 8 to 128 characters, not the email, not a common password. Answers the rule a new
 * password breaks (as the WeakPassword message and `details.rule` say it), or null when it keeps them all.
 */
export function brokenPasswordRule(password: string, email: string): string | null {
  if (password.trim().length === 0) return "must not be blank";
  if (password.length < 8) return "must have at least 8 characters";
  if (password.length > 128) return "must have at most 128 characters";
  if (password.toLowerCase() === email.toLowerCase()) return "must not equal the email";
  if (isCommonPassword(password)) return "is too common";
  return null;
}
