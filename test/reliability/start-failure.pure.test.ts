import { describe, expect, test } from "vitest";
import { explainStartFailure, StartError } from "../../src/app/start-failure.ts";
import { ConfigError } from "../../src/config.ts";

// Issue 31 item 8: each start failure an operator fixes gets one line and an exit code, not a stack.
const errno = (code: string, path?: string) =>
  Object.assign(new Error(`${code}: something`), { code, ...(path ? { path } : {}) });

describe("explainStartFailure", () => {
  test("configuration, port and directory problems exit 2 with the setting to change", () => {
    expect(explainStartFailure(new ConfigError("PORT", "must be an integer"))).toEqual({
      message: "invalid configuration: PORT must be an integer",
      exitCode: 2,
    });
    expect(
      explainStartFailure(new StartError("port 8080 on 0.0.0.0 is in use: stop what holds it or set PORT"))?.exitCode,
    ).toBe(2);
    expect(explainStartFailure(errno("EROFS", "/data/encryption.key"))).toEqual({
      message:
        "the data directory is on a read-only file system (/data/encryption.key): set PGLITE_DIR to a writable one",
      exitCode: 2,
    });
    expect(explainStartFailure(errno("EACCES", "/data"))?.message).toContain("set PGLITE_DIR");
  });

  test("a full disk and PGlite's abort exit 3", () => {
    expect(explainStartFailure(errno("ENOSPC", "/data/base"))?.exitCode).toBe(3);
    const aborted = explainStartFailure(new Error("Aborted(). Build with -sASSERTIONS for more info."));
    expect(aborted?.exitCode).toBe(3);
    expect(aborted?.message).toContain("disk under PGLITE_DIR is full");
  });

  test("anything else is left as it is (exit 1, printed whole)", () => {
    expect(explainStartFailure(new TypeError("x is undefined"))).toBeNull();
  });
});
