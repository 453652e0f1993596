import { beforeEach, describe, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";
import { usingPostgres } from "../support/database.ts";
import { count } from "../support/helpers.ts";
import { residentData } from "./support.ts";

/**
 * Concurrent creation over HTTP (issue 14, "Ids"): every call numbers its resident from the year's Counter row and
 * mints its external id from the global counter inside its own transaction. On PostgreSQL the calls really overlap
 * (on PGlite one connection serialises them, and the test still checks the numbering).
 */

let t: TestApp;

beforeEach(async () => {
  t = await startTestApp();
});

describe(`concurrent residentservice.create (${usingPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  test("50 parallel creations by 50 users: 50 different resident and external ids, in the exact formats", async () => {
    const users = await Promise.all(Array.from({ length: 50 }, (_, i) => t.register(`user${i}@example.org`)));
    const created = await Promise.all(
      users.map((u, i) =>
        u.callOk("residentservice.create", { data: residentData({ email: `user${i}@example.org` }) }),
      ),
    );
    const ids = created.map((r) => r.resident_id);
    const externals = created.map((r) => r.external_id);
    expect(new Set(ids).size).toBe(50);
    expect(new Set(externals).size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^FZ-2026-RA\d{6}$/);
    for (const e of externals) expect(e).toMatch(/^FZX-[0-9A-HJKMNP-TV-Z]{10}$/);
    // No gaps: the numbers are exactly 1..50.
    expect(ids.map((id) => Number(id.slice(-6))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(await count(t, "digital_resident")).toBe(50);
  });

  test("one user's concurrent creations: exactly one resident, the others AlreadyExists", async () => {
    const ada = await t.register("ada@example.org");
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => ada.call("residentservice.create", { data: residentData() })),
    );
    const ok = replies.filter((r) => "result" in r);
    const refused = replies.filter((r) => "error" in r);
    expect(ok).toHaveLength(1);
    for (const r of refused) {
      expect(r).toMatchObject({ error: { code: -32005, data: { type: "ResidentError", variant: "AlreadyExists" } } });
    }
    expect(await count(t, "digital_resident")).toBe(1);
  });
});
