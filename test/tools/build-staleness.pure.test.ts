import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { isStale } from "../../tools/build.mjs";
import { withBuildLock } from "../../tools/build-lock.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout with one source file and a build stamp, every mtime an hour ago (the stamp last). */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), "fz-build-"));
  dirs.push(root);
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const dir of ["src/app", "generated", "contracts/templates", "dist"])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "src/app/a.ts"), "export {};\n");
  writeFileSync(join(root, "dist/.build-stamp"), "built\n");
  for (const path of ["src/app/a.ts", "src/app", "src", "generated", "contracts/templates", "contracts"])
    utimesSync(join(root, path), hourAgo, hourAgo);
  const stamp = new Date(hourAgo.getTime() + 1000);
  utimesSync(join(root, "dist/.build-stamp"), stamp, stamp);
  return root;
}

describe("npm start rebuilds only a stale build (tools/build.mjs)", () => {
  test("a build newer than every input is current", () => {
    expect(isStale(checkout())).toBe(false);
  });

  test("no build stamp is stale", () => {
    const root = checkout();
    rmSync(join(root, "dist"), { recursive: true });
    expect(isStale(root)).toBe(true);
  });

  test("a source file saved after the build makes it stale", () => {
    const root = checkout();
    writeFileSync(join(root, "src/app/a.ts"), "export const changed = 1;\n");
    expect(isStale(root)).toBe(true);
  });

  test("a file added deep in an input folder makes it stale (the folder's mtime changes)", () => {
    const root = checkout();
    writeFileSync(join(root, "contracts/templates/new.md"), "# new\n");
    utimesSync(join(root, "contracts/templates/new.md"), new Date(0), new Date(0)); // an old file, copied in
    expect(isStale(root)).toBe(true);
  });
});

describe("one build at a time (tools/build-lock.mjs)", () => {
  const quiet = { pollMs: 10, log: () => {} };

  test("a second build waits until the first is done", async () => {
    const root = mkdtempSync(join(tmpdir(), "fz-lock-"));
    dirs.push(root);
    const events: string[] = [];
    const work = (name: string) => async () => {
      events.push(`${name} start`);
      await new Promise((done) => setTimeout(done, 50));
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([withBuildLock(root, work("a"), quiet), withBuildLock(root, work("b"), quiet)]);
    expect(results).toEqual(["a", "b"]);
    expect(events).toEqual(["a start", "a end", "b start", "b end"]);
    expect(existsSync(join(root, ".build-lock"))).toBe(false);
  });

  test("a lock left by a process that is gone is taken over", async () => {
    const root = mkdtempSync(join(tmpdir(), "fz-lock-"));
    dirs.push(root);
    mkdirSync(join(root, ".build-lock"));
    writeFileSync(join(root, ".build-lock", "pid"), "2147483646"); // no such process
    await expect(withBuildLock(root, async () => "built", quiet)).resolves.toBe("built");
  });

  test("the lock is released when the build fails", async () => {
    const root = mkdtempSync(join(tmpdir(), "fz-lock-"));
    dirs.push(root);
    await expect(
      withBuildLock(
        root,
        async () => {
          throw new Error("esbuild failed");
        },
        quiet,
      ),
    ).rejects.toThrow("esbuild failed");
    expect(existsSync(join(root, ".build-lock"))).toBe(false);
  });
});

// Issue 31 item 9: Vite's build set NODE_ENV=production in the process `npm start` then runs the server in, which
// then exited 2 (ENCRYPTION_KEY required) after any source change.
describe("the console build leaves the environment as it found it", () => {
  test("NODE_ENV unset before the build is unset after it", async () => {
    const { buildConsole } = await import("../../tools/build.mjs");
    const outDir = mkdtempSync(join(tmpdir(), "fz-console-"));
    dirs.push(outDir);
    const before = process.env["NODE_ENV"];
    delete process.env["NODE_ENV"];
    try {
      await buildConsole({ outDir });
      expect(existsSync(join(outDir, "index.html"))).toBe(true);
      expect(process.env["NODE_ENV"]).toBeUndefined();
    } finally {
      if (before !== undefined) process.env["NODE_ENV"] = before;
    }
  }, 120_000);
});
