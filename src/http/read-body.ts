import type { IncomingMessage } from "node:http";

/**
 * Reads a request body as UTF-8 and hands it to `done`; null once it passes `limit` bytes (the rest is drained, not
 * kept). Callbacks, not a promise: the lean JSON-RPC path answers a call that waits for nothing without one.
 */
export function onBody(
  req: IncomingMessage,
  limit: number,
  done: (body: string | null) => void,
  fail: (err: Error) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  });
  req.on("end", () =>
    done(
      size > limit
        ? null
        : chunks.length === 1
          ? (chunks[0] as Buffer).toString("utf8")
          : Buffer.concat(chunks).toString("utf8"),
    ),
  );
  req.on("error", fail);
}

/** Reads a request body as UTF-8; resolves null once it passes `limit` bytes (the rest is drained, not kept). */
export function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > limit ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
