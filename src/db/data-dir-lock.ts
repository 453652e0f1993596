/**
 * PGlite is PostgreSQL running inside this process: two processes opening the same data directory would
 * corrupt it, and PGlite itself does not stop them. This is our own advisory lock, `<dir>/.lock` holding the pid.
 *
 * - A lock whose pid is alive refuses the open with a clear message.
 * - A lock left by a dead pid (crash, SIGKILL, SIGINT without a handler) is stale and taken over.
 * - A lock holding our own pid that this process does not hold is stale too (containers reuse pid 1).
 * - Released on `release()` and, as a fallback, on process exit.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";

export const LOCK_FILE_NAME = ".lock";

export class DataDirInUseError extends Error {
  readonly dir: string;
  readonly pid: number;

  constructor(dir: string, pid: number) {
    super(`data directory ${dir} is in use by process ${pid} (another server or CLI); stop it first`);
    this.name = "DataDirInUseError";
    this.dir = dir;
    this.pid = pid;
  }
}

export interface DataDirLock {
  /** Absolute path of the lock file. */
  readonly lockPath: string;
  /** Removes the lock file (only if it still holds our pid). Idempotent. */
  release(): void;
}

/** Lock files held by this process, so a second open in the same process is refused too. */
const heldByThisProcess = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readPid(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // vanished meanwhile, or unreadable: treat as stale
  }
}

function tryCreate(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, "wx"); // O_CREAT | O_EXCL: only one creator wins
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

function removeIfOurs(lockPath: string): void {
  if (readPid(lockPath) !== process.pid) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // already gone
  }
}

/**
 * Takes the lock on `dir` (created if missing). `dir` is shown as given in the error message.
 * Throws DataDirInUseError when a live process holds it.
 */
export function acquireDataDirLock(dir: string): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const lockPath = resolve(join(dir, LOCK_FILE_NAME));

  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath)) break;
    const pid = readPid(lockPath);
    const live = pid !== undefined && (pid === process.pid ? heldByThisProcess.has(lockPath) : isAlive(pid));
    if (live) throw new DataDirInUseError(dir, pid);
    if (attempt >= 2) throw new Error(`could not take over the stale lock ${lockPath}`);
    try {
      unlinkSync(lockPath); // stale: remove and race for it again through O_EXCL
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }

  heldByThisProcess.add(lockPath);
  const onExit = (): void => removeIfOurs(lockPath);
  process.on("exit", onExit);

  let released = false;
  return {
    lockPath,
    release(): void {
      if (released) return;
      released = true;
      process.off("exit", onExit);
      heldByThisProcess.delete(lockPath);
      removeIfOurs(lockPath);
    },
  };
}
