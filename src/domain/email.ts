/** E-mail addresses as the registry stores and compares them. */

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The WHATWG HTML "valid e-mail address" grammar (what `<input type=email>` accepts), with a dot required in the
 * domain: a deliverable address has one. The mailbox itself is proven by verify_email.
 */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** A valid e-mail address (HTML5 grammar), at most 254 characters. */
export function isValidEmail(normalized: string): boolean {
  return EMAIL.test(normalized) && normalized.length <= 254;
}
