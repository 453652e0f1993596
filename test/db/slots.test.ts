import { describe, expect, test } from "vitest";
import { Slots } from "../../src/db/slots.ts";

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
