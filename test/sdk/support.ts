import type { Server } from "node:http";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { startTestApp, type TestApp } from "../support/app.ts";

export interface ServedApp {
  t: TestApp;
  base: string;
  close(): Promise<void>;
}

/** A test app (fresh database, the test clock) behind the real HTTP server on an ephemeral port. */
export async function serveTestApp(): Promise<ServedApp> {
  const t = await startTestApp();
  const server: Server = createHttpServer(t.app);
  const base = `http://127.0.0.1:${await listen(server, 0, "127.0.0.1")}`;
  return {
    t,
    base,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface CountingFetch {
  fetch: typeof fetch;
  /** Methods of each request sent (a batch: its methods joined by `,`). */
  sent: string[];
  /** The Idempotency-Key header of each request sent (null: none). */
  keys: (string | null)[];
}

/**
 * The global fetch, recording each request. The first `failures` requests fail as a network error would before
 * reaching the server; the next `lost` ones reach it and run, and their answer is lost on the way back.
 */
export function countingFetch(failures = 0, lost = 0): CountingFetch {
  const sent: string[] = [];
  const keys: (string | null)[] = [];
  let left = failures;
  let dropped = lost;
  const wrapped = async (input: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { method: string } | { method: string }[];
    sent.push(Array.isArray(body) ? body.map((b) => b.method).join(",") : body.method);
    keys.push((init?.headers as Record<string, string> | undefined)?.["idempotency-key"] ?? null);
    if (left > 0) {
      left -= 1;
      throw new TypeError("fetch failed");
    }
    const answer = await fetch(input, init);
    if (dropped > 0) {
      dropped -= 1;
      await answer.text();
      throw new TypeError("fetch failed: connection reset");
    }
    return answer;
  };
  return { fetch: wrapped as typeof fetch, sent, keys };
}

/** A sleep that does not wait (retries are tested by counting, never by timing), recording the delays asked. */
export function noSleep(delays: number[] = []) {
  return (ms: number, signal?: AbortSignal): Promise<void> => {
    delays.push(ms);
    return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  };
}
