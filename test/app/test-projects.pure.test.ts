import { expect, test } from "vitest";
import { testOrm } from "../support/database.ts";

/**
 * The `pure` project (vitest.config.ts) runs once, in the PGlite pass, so a `*.pure.test.ts` file must never reach
 * the shared test database (the PostgreSQL pass would silently skip what it tests). The project sets FZ_TEST_PURE,
 * and test/support/database.ts refuses to open the database under it: a pure file that needs the database fails
 * with a message saying to rename it.
 */

test("the pure project refuses to open the test database", async () => {
  expect(process.env["FZ_TEST_PURE"]).toBe("1");
  await expect(testOrm()).rejects.toThrow(/pure test .* opened the test database: drop \.pure from its name/);
});
