import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createApp } from "../../src/app/create-app.ts";
import { KEY_FILE_NAME } from "../../src/db/key-file.ts";
import { PASSWORD, startTestApp, testConfig } from "../support/app.ts";
import { TestClock } from "../support/clock.ts";
import { testOrm } from "../support/database.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, args, { cwd: ROOT, env: { ...process.env, DATABASE_URL: "", ...env } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

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

describe("CLI and the PGlite data directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "fz-data-"));
  let server: ChildProcess | null = null;
  afterAll(() => {
    server?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  test("create-admin creates the first administrator once", async () => {
    const env = { PGLITE_DIR: dir };
    const first = await run(
      ["tools/cli.ts", "create-admin", "--email", "cli@example.org", "--password", PASSWORD],
      env,
    );
    expect(first.out).toContain("administrator cli@example.org created");
    expect(first.code).toBe(0);
    const again = await run(
      ["tools/cli.ts", "create-admin", "--email", "other@example.org", "--password", PASSWORD],
      env,
    );
    expect(again.out).toContain("an administrator already exists; nothing changed");
    expect(again.code).toBe(1);
  }, 120_000);

  test("a second process on a data directory a running server holds refuses with a clear message", async () => {
    // node itself with tsx's loader (not the tsx wrapper): one process, so killing it leaves no orphan server.
    server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: dir, PORT: "0", LOG_LEVEL: "info" },
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("server did not start")), 90_000);
      server?.stdout?.on("data", (d: Buffer) => {
        if (d.toString().includes("listening")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const refused = await run(["tools/cli.ts", "create-admin", "--email", "x@example.org", "--password", PASSWORD], {
      PGLITE_DIR: dir,
    });
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/data directory .* is in use by process \d+ \(another server or CLI\); stop it first/);
  }, 120_000);

  test("without ENCRYPTION_KEY the data directory keeps its key file, mode 0600, the same across starts", () => {
    const path = join(dir, KEY_FILE_NAME);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("known default secrets (issue 13 item 8)", () => {
  test("NODE_ENV=production without ENCRYPTION_KEY stops the start naming the variable", async () => {
    const r = await run(["src/main.ts"], { NODE_ENV: "production", WEBHOOK_SECRET: "a secret of our own" });
    expect(r.code).toBe(2);
    expect(r.out).toContain("invalid configuration: ENCRYPTION_KEY is required when NODE_ENV=production");
  }, 60_000);

  test("NODE_ENV=production on the default webhook secret stops the start", async () => {
    const r = await run(["src/main.ts"], { NODE_ENV: "production", ENCRYPTION_KEY: "ab".repeat(32) });
    expect(r.code).toBe(2);
    expect(r.out).toContain("invalid configuration: WEBHOOK_SECRET must be set to a secret of your own");
  }, 60_000);

  test("DATABASE_URL without ENCRYPTION_KEY stops the start naming the variable", async () => {
    const r = await run(["src/main.ts"], { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" });
    expect(r.code).toBe(2);
    expect(r.out).toContain("invalid configuration: ENCRYPTION_KEY is required with DATABASE_URL");
  }, 60_000);
});
