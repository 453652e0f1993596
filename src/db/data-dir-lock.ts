/**
 * PGlite is PostgreSQL running inside this process: two processes opening the same data directory would
 * corrupt it, and PGlite itself does not stop them. This is our own advisory lock, `<dir>/.lock` holding who took
 * it: the pid, that process's start time and the boot id (Linux, from /proc) and the directory's real path.
 *
 * - A lock whose process is alive refuses the open with a clear message. Alive means the pid exists and, where the
 *   lock recorded them, it is the same process (same start time, same boot: a pid reused by an unrelated process
 *   after a crash or a reboot does not count) and the lock names this directory (a hot copy of the directory, `cp -a`,
 *   carries the original's lock: the copy is not in use).
 * - A lock holding only a pid (written before) is judged by the pid alone.
 * - A lock left by a dead pid (crash, SIGKILL, SIGINT without a handler) is stale and taken over.
 * - A lock holding our own pid that this process does not hold is stale too (containers reuse pid 1).
 * - Released on `release()` and, as a fallback, on process exit.
 */
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, unlinkSync, writeSync } from "node:fs";
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

/** Who holds a lock, as written in it. */
export interface LockHolder {
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat field 22); null where unknown. */
  start: string | null;
  boot: string | null;
  dir: string | null;
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The start time of `pid` (Linux): field 22 of /proc/<pid>/stat, counted after the command's closing parenthesis. */
export function processStart(pid: number): string | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
}

export function bootId(): string | null {
  return readProc("/proc/sys/kernel/random/boot_id")?.trim() ?? null;
}

/** The holder a lock file names: JSON, or a bare pid from before. */
export function readHolder(lockPath: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(lockPath, "utf8").trim();
  } catch {
    return undefined; // vanished meanwhile, or unreadable: treat as stale
  }
  if (/^\d+$/.test(text)) {
    const pid = Number.parseInt(text, 10);
    return pid > 0 ? { pid, start: null, boot: null, dir: null } : undefined;
  }
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isInteger(v.pid) || (v.pid ?? 0) <= 0) return undefined;
    const str = (x: unknown) => (typeof x === "string" ? x : null);
    return { pid: v.pid as number, start: str(v.start), boot: str(v.boot), dir: str(v.dir) };
  } catch {
    return undefined;
  }
}

function readPid(lockPath: string): number | undefined {
  return readHolder(lockPath)?.pid;
}

/** Whether the lock's holder is a live process that holds this directory (see the top of the file). */
function holderLive(holder: LockHolder, lockPath: string, dir: string): boolean {
  if (holder.pid === process.pid) return heldByThisProcess.has(lockPath);
  if (!isAlive(holder.pid)) return false;
  if (holder.dir !== null && holder.dir !== dir) return false; // a copy of another directory's lock
  const boot = bootId();
  if (holder.boot !== null && boot !== null && holder.boot !== boot) return false; // taken before a reboot
  const start = processStart(holder.pid);
  if (holder.start !== null && start !== null && holder.start !== start) return false; // the pid was reused
  return true;
}

function tryCreate(lockPath: string, dir: string): boolean {
  try {
    const fd = openSync(lockPath, "wx"); // O_CREAT | O_EXCL: only one creator wins
    try {
      const holder: LockHolder = { pid: process.pid, start: processStart(process.pid), boot: bootId(), dir };
      writeSync(fd, `${JSON.stringify(holder)}\n`);
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
  const real = realpathSync(dir);
  const lockPath = resolve(join(dir, LOCK_FILE_NAME));

  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath, real)) break;
    const holder = readHolder(lockPath);
    if (holder && holderLive(holder, lockPath, real)) throw new DataDirInUseError(dir, holder.pid);
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
