/**
 * What a business rule answers when it says no: the variant the service declares for it, a message for people,
 * and details for programs. Rules return it (never throw); the service maps it to its error type.
 */
export interface Refusal<V extends string = string> {
  refusal: V;
  message: string;
  details?: Record<string, unknown>;
}

export function refuse<V extends string>(refusal: V, message: string, details?: Record<string, unknown>): Refusal<V> {
  return details === undefined ? { refusal, message } : { refusal, message, details };
}

export function isRefusal<T>(value: T | Refusal): value is Refusal {
  return typeof value === "object" && value !== null && "refusal" in value;
}
