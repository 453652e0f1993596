import { Writable } from "node:stream";
import pino from "pino";
import pretty from "pino-pretty";
import { describe, expect, test } from "vitest";
import { logDestination, PRETTY_OPTIONS } from "../../src/app/logging.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";

/** Issue 31 item 10: JSON lines in production, pino-pretty for a person in development, LOG_FORMAT to choose. */
describe("LOG_FORMAT", () => {
  const key = { ENCRYPTION_KEY: "a".repeat(64), WEBHOOK_SECRET: "s".repeat(40) };
  test("defaults: json in production, pretty in development, auto (pretty on a terminal) otherwise", () => {
    expect(loadConfig({ NODE_ENV: "production", ...key }).logFormat).toBe("json");
    expect(loadConfig({ NODE_ENV: "development" }).logFormat).toBe("pretty");
    expect(loadConfig({}).logFormat).toBe("auto");
    expect(loadConfig({ NODE_ENV: "production", LOG_FORMAT: "pretty", ...key }).logFormat).toBe("pretty");
  });

  test("anything else is refused naming the setting", () => {
    expect(() => loadConfig({ LOG_FORMAT: "yaml" })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: "yaml" })).toThrow(/LOG_FORMAT/);
  });

  test("auto is JSON when stdout is not a terminal (a collector, a pipe) and pretty on one", () => {
    expect(logDestination("auto", false).stream.constructor.name).toBe("SonicBoom");
    expect(logDestination("json", true).stream.constructor.name).toBe("SonicBoom");
    expect(logDestination("auto", true).stream.constructor.name).not.toBe("SonicBoom");
  });

  test("the pretty format is one readable line: time, level, message and the fields", async () => {
    let text = "";
    const sink = new Writable({
      write(chunk, _enc, done) {
        text += String(chunk);
        done();
      },
    });
    const log = pino({}, pretty({ ...PRETTY_OPTIONS, destination: sink, colorize: false }));
    log.info({ requestId: "r-1", method: "authservice.me", outcome: "ok" }, "rpc");
    await new Promise((resolve) => setImmediate(resolve));
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: rpc/);
    expect(text).toContain('requestId: "r-1"');
    expect(() => JSON.parse(text)).toThrow();
  });
});
