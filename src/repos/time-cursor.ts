import { decodeCursor } from "./paging.ts";

/**
 * Keyset position of lists ordered newest first by a timestamp, ties broken by sid (approvals by requested_at,
 * the MCP call log by created_at): the cursor holds both, as `[ISO time, sid]`.
 */
export interface TimePosition {
  at: Date;
  sid: string;
}

export const timeCursorOf = (at: Date, sid: string): string[] => [at.toISOString(), sid];

/** The position a cursor stands for, `null` for the first page; anything this server did not make is `invalid()`. */
export function decodeTimeCursor(cursor: string | null | undefined, invalid: () => Error): TimePosition | null {
  const position = decodeCursor(cursor, 2, invalid);
  if (position === null) return null;
  const [iso, sid] = position as [string, string];
  const at = new Date(iso);
  if (Number.isNaN(at.getTime()) || sid === "") throw invalid();
  return { at, sid };
}
