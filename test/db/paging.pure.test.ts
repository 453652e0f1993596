import { describe, expect, test } from "vitest";
import { cursorPage, decodeCursor, encodeCursor, pageWindow, toPage } from "../../src/repos/paging.ts";

// The one paging helper (issue 12 item 4); page-number paging serves the seed's page/page_size methods.
describe("page-number paging", () => {
  test("page_size 1 to 100, 0 or absent means 20; pages are 1-based", () => {
    expect(pageWindow({})).toEqual({ page: 1, pageSize: 20, offset: 0 });
    expect(pageWindow({ page: 3, page_size: 0 })).toEqual({ page: 3, pageSize: 20, offset: 40 });
    expect(pageWindow({ page: 2, page_size: 100 })).toEqual({ page: 2, pageSize: 100, offset: 100 });
    expect(pageWindow({ page: 0, page_size: 500 })).toEqual({ page: 1, pageSize: 100, offset: 0 });
    expect(toPage(["a"], 41, pageWindow({ page: 3 }))).toEqual({ items: ["a"], total: 41, page: 3, page_size: 20 });
  });
});

describe("opaque cursors", () => {
  test("a cursor stands for the last row's sort key; a foreign one is refused with the caller's error", () => {
    const cursor = encodeCursor(["2026-11-25T10:00:00.000Z", "sid-1"]);
    expect(decodeCursor(cursor, 2, () => new Error("bad"))).toEqual(["2026-11-25T10:00:00.000Z", "sid-1"]);
    expect(decodeCursor(null, 2, () => new Error("bad"))).toBeNull();
    expect(() => decodeCursor(cursor, 1, () => new Error("bad"))).toThrow("bad");
    expect(() => decodeCursor("!!", 1, () => new Error("bad"))).toThrow("bad");
  });

  test("a page of limit + 1 rows says more follow with the last kept row's cursor", () => {
    const rows = [{ sid: "c" }, { sid: "b" }, { sid: "a" }];
    const page = cursorPage(
      rows,
      2,
      (r) => [r.sid],
      (r) => r.sid,
    );
    expect(page).toEqual({ items: ["c", "b"], next_cursor: encodeCursor(["b"]) });
    expect(
      cursorPage(
        rows,
        3,
        (r) => [r.sid],
        (r) => r.sid,
      ).next_cursor,
    ).toBeNull();
  });
});
