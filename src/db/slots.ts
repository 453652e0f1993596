import { SlotTimeoutError } from "../rpc/unexpected-error.ts";

/** A counting semaphore: at most `size` holders at once; the others wait in arrival order, each until a deadline. */
export class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  /** `waitMs`: the longest `acquire` waits before it fails with SlotTimeoutError (no deadline when undefined). */
  constructor(
    readonly size: number,
    readonly waitMs?: number,
  ) {}

  /** Resolves when a slot is free, with the function that gives it back (once). */
  async acquire(): Promise<() => void> {
    if (this.used < this.size) this.used += 1;
    else await this.wait(this.waitMs);
    return this.release();
  }

  /** A slot within `waitMs` (however long `acquire` may wait), or null: nothing is held then. */
  async tryAcquire(waitMs: number): Promise<(() => void) | null> {
    if (this.used < this.size) this.used += 1;
    else {
      const taken = await this.wait(waitMs).then(
        () => true,
        () => false,
      );
      if (!taken) return null;
    }
    return this.release();
  }

  private release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; only when none waits does it become free.
      if (next) next();
      else this.used -= 1;
    };
  }

  /** Callers waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  private wait(waitMs: number | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const take = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      this.waiting.push(take);
      if (waitMs === undefined) return;
      timer = setTimeout(() => {
        const at = this.waiting.indexOf(take);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new SlotTimeoutError(waitMs));
      }, waitMs);
      timer.unref();
    });
  }
}
