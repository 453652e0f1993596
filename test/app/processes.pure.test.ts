import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { KEY_FILE_NAME } from "../../src/db/key-file.ts";
import { PASSWORD } from "../support/app.ts";

/**
 * The CLI and the server as processes, each on a PGlite data directory of its own (DATABASE_URL emptied), so the
 * result does not depend on the test database: one spawned smoke test per command. What the configuration refuses
 * is tested in process (test/app/secrets-config.test.ts); here only that the server exits 2 and prints it.
 */

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

describe("an invalid configuration", () => {
  test("stops the server with exit code 2, naming the variable", async () => {
    const r = await run(["src/main.ts"], { NODE_ENV: "production", WEBHOOK_SECRET: "a secret of our own" });
    expect(r.code).toBe(2);
    expect(r.out).toContain("invalid configuration: ENCRYPTION_KEY is required when NODE_ENV=production");
  }, 60_000);
});
