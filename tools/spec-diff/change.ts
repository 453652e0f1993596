/** One difference between two contracts, at a JSON pointer into the contract (methods and params by name). */
export interface Change {
  pointer: string;
  kind: "breaking" | "compatible";
  message: string;
}

/**
 * Where a schema is read: `input` (params: the server accepts it) or `output` (results: the client reads it). A named
 * schema may be both, or neither (served vocabulary no method reaches).
 */
export type Position = "input" | "output";

/**
 * How a change moves the set of values a schema allows: `narrowed` (fewer values) breaks callers sending input and is
 * safe for readers of output; `widened` is the reverse; `changed` (neither contains the other) breaks both;
 * `info` (descriptions, defaults) breaks nothing.
 */
export type Effect = "narrowed" | "widened" | "changed" | "info";

export function isBreaking(effect: Effect, positions: ReadonlySet<Position>): boolean {
  if (effect === "narrowed") return positions.has("input");
  if (effect === "widened") return positions.has("output");
  if (effect === "changed") return positions.size > 0;
  return false;
}

export function segment(name: string): string {
  return `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}
