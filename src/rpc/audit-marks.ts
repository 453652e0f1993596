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
