import type { MigrationWatcher } from "../../src/db/orm.ts";
import { progress } from "../progress.ts";

/** Progress of pending migrations for command-line entry points (nothing is shown when none is pending). */
export const migrationProgress: MigrationWatcher = (pending) => {
  if (pending === 0) return null;
  const bar = progress("migrations", pending);
  let left = pending;
  return (name) => {
    bar.tick(1, name);
    left -= 1;
    if (left === 0) bar.done(`${pending} applied`);
  };
};
