import { describe, expect, test } from "vitest";
import { Slots } from "../../src/db/slots.ts";
import { SlotTimeoutError } from "../../src/rpc/unexpected-error.ts";

describe("Slots", () => {
  test("lets `size` holders in at once and the next ones in arrival order as slots come back", async () => {
    const slots = new Slots(2);
    const order: string[] = [];
    const a = await slots.acquire();
    const b = await slots.acquire();
    const entered = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const c = slots.acquire().then(entered("c"));
    const d = slots.acquire().then(entered("d"));
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    (await c)();
    b();
    (await d)();
    expect(order).toEqual(["c", "d"]);
  });

  test("giving a slot back twice frees it once", async () => {
    const slots = new Slots(1);
    const release = await slots.acquire();
    release();
    release();
    const first = await slots.acquire();
    let second = false;
    void slots.acquire().then(() => {
      second = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(second).toBe(false);
    first();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(second).toBe(true);
  });
});

// Issue 31 item 2: a held lock took every write slot and the calls queued behind them waited without end.
describe("Slots with a deadline", () => {
  test("a waiter gives up after waitMs with SlotTimeoutError and leaves the queue", async () => {
    const slots = new Slots(1, 30);
    const held = await slots.acquire();
    const started = Date.now();
    await expect(slots.acquire()).rejects.toBeInstanceOf(SlotTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(slots.queued).toBe(0);
    held();
    const next = await slots.acquire(); // the slot came back free: nobody timed-out holds it
    next();
  });

  test("a waiter served before its deadline keeps the slot", async () => {
    const slots = new Slots(1, 1000);
    const held = await slots.acquire();
    const waiting = slots.acquire();
    held();
    const release = await waiting;
    expect(slots.queued).toBe(0);
    release();
  });
});
