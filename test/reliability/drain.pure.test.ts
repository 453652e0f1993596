import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { Drain } from "../../src/app/drain.ts";

// A request that reaches a draining server on a connection still open is refused with the declared, retryable
// -32011 ShuttingDown (HTTP 503, Retry-After), never run.
describe("Drain", () => {
  test("once draining, a request is answered 503 ShuttingDown and not run", async () => {
    const drain = new Drain();
    let ran = 0;
    const server = createServer((req, res) => {
      if (!drain.admit(req, res)) return;
      ran += 1;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
    try {
      expect(await (await fetch(url, { method: "POST" })).text()).toBe("ok");
      expect(await drain.begin(1000)).toBe(true);
      const refused = await fetch(url, { method: "POST" });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(((await refused.json()) as { error: unknown }).error).toEqual({
        code: -32011,
        message: "the server is shutting down; retry the call on another instance",
        data: { type: "RpcError", variant: "ShuttingDown", retry_after_s: 5 },
      });
      expect([ran, drain.served, drain.refused, drain.inFlight]).toEqual([1, 1, 1, 0]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
