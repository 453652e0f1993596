import { ConfigError } from "../config.ts";
import { DataDirInUseError } from "../db/data-dir-lock.ts";
import { DatabaseStartError } from "../db/orm.ts";

/** A start that cannot go on, with the one line that says why and what to change (exit code 2). */
export class StartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartError";
  }
}

/**
 * One line and an exit code for the ways a start fails that an operator fixes (issue 31 item 8): 2 for the
 * configuration or the machine (a setting, a port, a read-only directory), 3 for the database (unreachable, missing,
 * out of space). Null for anything else: the caller prints the error as it is and exits 1.
 */
export function explainStartFailure(err: unknown): { message: string; exitCode: number } | null {
  if (err instanceof ConfigError || err instanceof DataDirInUseError || err instanceof StartError) {
    return { message: err.message, exitCode: 2 };
  }
  if (err instanceof DatabaseStartError) return { message: err.message, exitCode: 3 };
  const e = err as NodeJS.ErrnoException | undefined;
  const where = e?.path ? ` (${e.path})` : "";
  if (e?.code === "EROFS") {
    return {
      message: `the data directory is on a read-only file system${where}: set PGLITE_DIR to a writable one`,
      exitCode: 2,
    };
  }
  if (e?.code === "EACCES" || e?.code === "EPERM") {
    return {
      message: `no permission to write the data directory${where}: fix its owner or set PGLITE_DIR`,
      exitCode: 2,
    };
  }
  if (e?.code === "ENOSPC")
    return { message: `no space left on the device${where}: free space and start again`, exitCode: 3 };
  if (err instanceof Error && /^Aborted\(/.test(err.message)) {
    return {
      message:
        "the embedded database stopped (Aborted()): most often the disk under PGLITE_DIR is full; free space and start again",
      exitCode: 3,
    };
  }
  return null;
}
