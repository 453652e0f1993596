/**
 * The child side of every bench server: answers profiling commands over IPC (V8 sampling profiler through
 * node:inspector, so only the measured window is recorded) and exits when told to or when the parent goes away
 * (no server outlives the bench). Our own server (src/main.ts) gets this through bench/servers/preload.ts.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

export type ChildCommand =
  | { cmd: "profile-start"; intervalUs: number }
  | { cmd: "profile-stop"; path: string }
  | { cmd: "stop" };

export type ChildEvent =
  | { event: "ready"; port: number }
  | { event: "profile-started" }
  | { event: "profile-saved"; path: string }
  | { event: "failed"; message: string };

function send(message: ChildEvent): void {
  process.send?.(message);
}

/** Installs the IPC command handler; `stop` runs on "stop", SIGTERM and when the parent goes away. */
export function answerCommands(stop: () => void): void {
  let session: Session | null = null;
  process.on("message", (raw: ChildCommand) => {
    void (async () => {
      if (raw.cmd === "stop") return stop();
      if (raw.cmd === "profile-start") {
        session = new Session();
        session.connect();
        await session.post("Profiler.enable");
        await session.post("Profiler.setSamplingInterval", { interval: raw.intervalUs });
        await session.post("Profiler.start");
        return send({ event: "profile-started" });
      }
      if (raw.cmd === "profile-stop" && session) {
        const { profile } = await session.post("Profiler.stop");
        session.disconnect();
        session = null;
        writeFileSync(raw.path, JSON.stringify(profile));
        return send({ event: "profile-saved", path: raw.path });
      }
    })().catch((err: unknown) => send({ event: "failed", message: String(err) }));
  });
  process.on("disconnect", stop);
}

/** For the baseline servers: call once listening; `close` ends their own resources (pools) before exit. */
export function serveAsChild(port: number, close: () => Promise<void> = async () => undefined): void {
  const exit = () => {
    const timer = setTimeout(() => process.exit(0), 2000);
    timer.unref();
    close().finally(() => process.exit(0));
  };
  answerCommands(exit);
  process.on("SIGTERM", exit);
  send({ event: "ready", port });
}

/** Reports a start-up failure to the parent and exits non-zero. */
export function failAsChild(err: unknown): never {
  send({ event: "failed", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
}

/** Reads the whole request body as a string (what every JSON server must do before JSON.parse). */
export function readBody(req: import("node:http").IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")),
    );
    req.on("error", reject);
  });
}
