import { expect, test } from "vitest";
import { compareAuth } from "../../tools/spec-diff/auth.ts";

// x-auth moves as sets of admitted callers (tools/spec-diff/auth.ts).
const MOVES: [string, string, ReturnType<typeof compareAuth>][] = [
  ["user", "user", "same"],
  ["anonymous", "user", "tightened"],
  ["user", "session", "tightened"],
  ["session", "admin", "tightened"],
  ["user", "admin", "tightened"],
  ["user", "company:member", "tightened"],
  ["company:member", "company:director", "tightened"],
  ["company:director", "company:founder", "tightened"],
  ["admin", "anonymous", "loosened"],
  ["session", "user", "loosened"],
  ["company:director", "company:member", "loosened"],
  ["company:founder", "company:director", "loosened"],
  ["company:member", "user", "loosened"],
  ["webhook", "anonymous", "loosened"],
  ["company:director", "company:shareholder", "changed"],
  ["session", "company:director", "changed"],
  ["user", "partner", "changed"],
  ["partner", "webhook", "changed"],
];

test.each(MOVES)("x-auth %s -> %s is %s", (from, to, expected) => {
  expect(compareAuth(from, to)).toBe(expected);
});
