import { dictionary } from "@zxcvbn-ts/language-common";

let common: Set<string> | null = null;

/** The ~49,000 most common passwords (zxcvbn's list, ranked), compared case-insensitively. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
