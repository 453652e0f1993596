// One build at a time per checkout: two `npm start` run together on a stale build (a newcomer's second terminal, a
// bench and a manual start) must not both empty dist/ and write the PGlite template over each other. The lock is a
// directory (mkdir is atomic) holding the builder's pid; a waiter polls until it is gone, then checks staleness
// again (the other build usually made it current). A lock whose process is gone is taken over.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Whether a process with this pid is running (signal 0 checks without sending). */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/** A lock without a pid for this long lost its builder between mkdir and writing the pid. */
const ORPHAN_MS = 30_000;

/** The holder's pid; null while the lock is being created or removed; 0 for an orphaned lock. */
function holder(lock) {
  try {
    return Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    const made = statSync(lock, { throwIfNoEntry: false });
    return made && Date.now() - made.mtimeMs > ORPHAN_MS ? 0 : null;
  }
}

/** Runs `work` holding `<root>/.build-lock`; waits (polling every `pollMs`) while another live process holds it. */
export async function withBuildLock(root, work, { pollMs = 100, log = console.error } = {}) {
  const lock = join(root, ".build-lock");
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    const pid = holder(lock);
    if (pid !== null && (pid === 0 || !alive(pid))) {
      rmSync(lock, { recursive: true, force: true }); // its builder died: the next turn takes it
      continue;
    }
    if (!announced) {
      log(`build: another process${pid ? ` (pid ${pid})` : ""} is building dist/; waiting for it`);
      announced = true;
    }
    await sleep(pollMs);
  }
  try {
    writeFileSync(join(lock, "pid"), String(process.pid));
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
