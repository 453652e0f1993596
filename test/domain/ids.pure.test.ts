import { describe, expect, test } from "vitest";
import { uuidv7 } from "../../src/domain/ids.ts";

describe("uuidv7", () => {
  test("has version 7 and the RFC 9562 variant", () => {
    expect(uuidv7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test("ids made in the same millisecond sort in creation order", () => {
    const at = new Date("2026-11-23T10:00:00.000Z");
    const ids = Array.from({ length: 2000 }, () => uuidv7(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("a clock that steps back never produces a smaller id", () => {
    const later = uuidv7(new Date("2026-11-23T10:00:01.000Z"));
    const earlier = uuidv7(new Date("2026-11-23T09:00:00.000Z"));
    expect(earlier > later).toBe(true);
  });
});
