/**
 * An idempotent repeat that changed nothing writes no second audit row (governanceservice.enforce_decision): its
 * handler returns `unaudited(result)` and the dispatcher skips the x-audit row for it. The mark is a symbol key, so
 * it never reaches the wire nor the result schema check.
 */
const UNAUDITED = Symbol("unaudited");

export function unaudited<T extends object>(result: T): T {
  Object.defineProperty(result, UNAUDITED, { value: true, enumerable: false });
  return result;
}

export function isUnaudited(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as Record<symbol, unknown>)[UNAUDITED] === true;
}

const DETAILS = Symbol("auditDetails");

/**
 * Details a handler adds to its method's x-audit row, on its result or on the error it throws (view_document's
 * visibility decision: the matched role and audience row, or why it refused). A symbol key too: never on the wire.
 */
export function withAuditDetails<T extends object>(value: T, details: Record<string, unknown>): T {
  Object.defineProperty(value, DETAILS, { value: details, enumerable: false, configurable: true });
  return value;
}

export function auditDetailsOf(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null) return {};
  return ((value as Record<symbol, unknown>)[DETAILS] as Record<string, unknown> | undefined) ?? {};
}
