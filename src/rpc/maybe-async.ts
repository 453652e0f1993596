/**
 * Values that are promises only when something was waited for. A call that waits for nothing answers without a
 * promise: on Node 20 every promise pays the AsyncLocalStorage hooks MikroORM installs, and a trivial call is short
 * enough for them to count.
 */
export type MaybePromise<T> = T | PromiseLike<T>;

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** `then` for a value that may be a promise: a plain value goes on at once, without a microtask. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromiseLike(value) ? value.then(next) : next(value);
}
