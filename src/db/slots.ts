/** A counting semaphore: at most `size` holders at once; the others wait in arrival order. */
export class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Resolves when a slot is free, with the function that gives it back (once). */
  async acquire(): Promise<() => void> {
    if (this.used < this.size) this.used += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
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
}
