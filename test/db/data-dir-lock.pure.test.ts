import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acquireDataDirLock, bootId, DataDirInUseError, processStart, readHolder } from "../../src/db/data-dir-lock.ts";

// Issue 31 item 7: a lock is judged by more than a live pid. A hot copy of the data directory (cp -a) carries the
// original's lock: the copy is not in use. A pid reused by an unrelated process, or a lock from before a reboot,
// is stale. A live holder of this very directory still refuses.
const onLinux = process.platform === "linux";
const dirs: string[] = [];
let other: ChildProcess;

beforeAll(() => {
  other = spawn("sleep", ["60"], { stdio: "ignore" }); // a live process that is not this one
});
afterAll(() => {
  other.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lock-"));
  dirs.push(dir);
  return dir;
}

/** A lock as the other process would have written it for `dir`, with fields overridden. */
function lockOf(dir: string, over: Record<string, unknown> = {}): string {
  const pid = other.pid!;
  return `${JSON.stringify({ pid, start: processStart(pid), boot: bootId(), dir: realpathSync(dir), ...over })}\n`;
}

describe("what a lock records", () => {
  test("the pid, the process's start time and the boot id, and the directory's real path", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    const holder = readHolder(join(dir, ".lock"));
    expect(holder).toMatchObject({ pid: process.pid, dir: realpathSync(dir) });
    if (onLinux) {
      expect(holder?.start).toMatch(/^\d+$/);
      expect(holder?.boot).toMatch(/^[0-9a-f-]{36}$/);
    }
    lock.release();
  });
});

describe.runIf(onLinux)("judging a lock found", () => {
  test("a live holder of this directory refuses the open", () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".lock"), lockOf(dir));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError);
  });

  test("a hot copy of a directory in use opens: its lock names the original", () => {
    const original = tempDir();
    writeFileSync(join(original, ".lock"), lockOf(original));
    const copy = join(tempDir(), "copy");
    cpSync(original, copy, { recursive: true, preserveTimestamps: true });
    expect(readFileSync(join(copy, ".lock"), "utf8")).toBe(readFileSync(join(original, ".lock"), "utf8"));
    const lock = acquireDataDirLock(copy);
    expect(readHolder(join(copy, ".lock"))).toMatchObject({ pid: process.pid, dir: realpathSync(copy) });
    lock.release();
    expect(() => acquireDataDirLock(original)).toThrow(DataDirInUseError); // the original stays held
  });

  test("a pid now held by an unrelated process (another start time) is stale and taken over", () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".lock"), lockOf(dir, { start: "1" }));
    acquireDataDirLock(dir).release();
  });

  test("a lock taken before a reboot (another boot id) is stale", () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".lock"), lockOf(dir, { boot: "00000000-0000-0000-0000-000000000000" }));
    acquireDataDirLock(dir).release();
  });

  test("a lock written before (a bare pid) is judged by the pid: a live one refuses", () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".lock"), `${other.pid}\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError);
  });
});
