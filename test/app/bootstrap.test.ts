import { describe, expect, test } from "vitest";
import { createApp } from "../../src/app/create-app.ts";
import { PASSWORD, startTestApp, testConfig } from "../support/app.ts";
import { TestClock } from "../support/clock.ts";
import { testOrm } from "../support/database.ts";

/** Start-up on the shared test database; the spawned CLI and server are test/app/processes.pure.test.ts. */

describe("first administrator from ADMIN_EMAIL / ADMIN_PASSWORD", () => {
  test("start creates it when none exists, and a later start with other values changes nothing", async () => {
    const t = await startTestApp({ adminEmail: "root@example.org", adminPassword: PASSWORD });
    const login = await t.rpc("authservice.login", { email: "root@example.org", password: PASSWORD });
    const me = await t.rpc("authservice.me", {}, { authorization: `Bearer ${login.result.access_token}` });
    expect(me.result.roles).toContain("admin");
    const orm = await testOrm();
    for (const adminEmail of ["root@example.org", "second@example.org"]) {
      const later = await createApp(
        testConfig(new TestClock(), { adminEmail, adminPassword: "another passphrase 99" }),
        { orm },
      );
      await later.close();
    }
    expect((await t.rpc("authservice.login", { email: "root@example.org", password: PASSWORD })).result).toBeDefined();
    expect(
      (await t.rpc("authservice.login", { email: "second@example.org", password: "another passphrase 99" })).error
        ?.code,
    ).toBe(-32001);
  });

  test("an existing plain user with that email is left alone", async () => {
    const t = await startTestApp();
    const user = await t.register("taken@example.org");
    const orm = await testOrm();
    const other = await createApp(
      testConfig(new TestClock(), { adminEmail: "taken@example.org", adminPassword: "another passphrase 99" }),
      { orm },
    );
    await other.close();
    const me = await user.rpc("authservice.me", {});
    expect(me.result.roles).toEqual(["user"]);
  });
});
