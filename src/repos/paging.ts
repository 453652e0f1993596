/**
 * The two list shapes of API.md "Results", written once:
 * - page-number paging `{ items, total, page, page_size }` where a method takes `page`/`page_size`
 *   (page 1-based; page_size 1 to 100, 0 or absent means 20);
 * - opaque cursors `{ items, next_cursor }` for lists that grow without bound (keyset paging: the cursor is the
 *   sort key of the last row, base64url-encoded JSON; `null` at the end).
 */

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PageParams {
  page?: number | undefined;
  page_size?: number | undefined;
}

export interface PageWindow {
  page: number;
  pageSize: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

/** Which rows a page-number request asks for (the params schema bounds the numbers; this clamps defensively). */
export function pageWindow({ page, page_size }: PageParams): PageWindow {
  const size = !page_size ? DEFAULT_PAGE_SIZE : Math.min(Math.max(Math.trunc(page_size), 1), MAX_PAGE_SIZE);
  const number = Math.max(Math.trunc(page ?? 1), 1);
  return { page: number, pageSize: size, offset: (number - 1) * size };
}

export function toPage<T>(items: T[], total: number, window: PageWindow): Page<T> {
  return { items, total, page: window.page, page_size: window.pageSize };
}

export interface CursorPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** The sort key of a row (for example `[sid]` or `[created_at ISO, sid]`), as an opaque cursor. */
export function encodeCursor(position: readonly string[]): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

/**
 * The sort key a cursor stands for, `null` for no cursor (the first page). A cursor this server did not make
 * (not base64url JSON of `arity` strings) is refused with `invalid()`, the caller's declared error.
 */
export function decodeCursor(cursor: string | null | undefined, arity: number, invalid: () => Error): string[] | null {
  if (cursor === undefined || cursor === null || cursor === "") return null;
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(position) || position.length !== arity || !position.every((p) => typeof p === "string")) {
    throw invalid();
  }
  return position as string[];
}

/**
 * A keyset page from rows fetched with `limit + 1` (the extra row says whether there is more): the first `limit`
 * rows mapped, and the cursor of the last one when more follow.
 */
export function cursorPage<R, T>(
  rows: R[],
  limit: number,
  position: (row: R) => string[],
  map: (row: R) => T,
): CursorPage<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items: items.map(map), next_cursor: rows.length > limit && last ? encodeCursor(position(last)) : null };
}
