import type { Server } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { startTestApp, type TestApp } from "../support/app.ts";

// Issue 13 item 1, outside `npm test` (`npm run test:heavy`):
// one anonymous request of 1,000 rpc.discover calls (about 60 KB) used to stall the server for seconds, grow it
// by a gigabyte and end in HTTP 500. Now its answer is one document and 999 short refusals, and /health keeps
// answering meanwhile.
let t: TestApp;
let server: Server;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  server = createHttpServer(t.app);
  base = `http://127.0.0.1:${await listen(server, 0, "127.0.0.1")}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("a batch of 1,000 rpc.discover answers once, stays small, and /health answers meanwhile", async () => {
  const batch = Array.from({ length: 1000 }, (_, id) => ({ jsonrpc: "2.0", id, method: "rpc.discover" }));
  const rssBefore = process.memoryUsage().rss;
  const healthTimes: number[] = [];
  let done = false;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${base}/health`);
      expect(res.status).toBe(200);
      healthTimes.push(performance.now() - started);
    }
  })();
  const started = performance.now();
  const res = await fetch(`${base}/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(batch),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  done = true;
  await poll;
  const answers = JSON.parse(text) as { result?: unknown; error?: { code: number } }[];
  expect(res.status).toBe(200);
  expect(answers.filter((a) => a.result !== undefined)).toHaveLength(1);
  expect(answers.filter((a) => a.error?.code === -32600)).toHaveLength(999);
  expect(text.length).toBeLessThan(2 * 1024 * 1024);
  expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  expect(healthTimes.length).toBeGreaterThan(0);
  console.log(
    `batch of 1000 rpc.discover: ${Math.round(ms)} ms, ${text.length} bytes; /health answered ${healthTimes.length}` +
      ` times meanwhile, slowest ${Math.round(Math.max(...healthTimes))} ms`,
  );
});
