import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { openSecret, sealSecret } from "../../src/auth/secret-box.ts";
import { ConfigError, DEFAULT_WEBHOOK_SECRET, loadConfig } from "../../src/config.ts";
import { discardUnusedKeyFile, KEY_FILE_NAME, withKeyFile } from "../../src/db/key-file.ts";

// Issue 13 item 8: no known default secret in production, no secret stored unsealed, a key that survives restarts.
const KEY = "0f".repeat(32);
const PG = "postgres://postgres@127.0.0.1:5432/test";

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("the configuration was accepted");
}

describe("start-up refusals", () => {
  test("production needs ENCRYPTION_KEY and a webhook secret of its own", () => {
    expect(refusal({ NODE_ENV: "production", WEBHOOK_SECRET: "ours" })).toContain("ENCRYPTION_KEY is required");
    expect(refusal({ NODE_ENV: "production", ENCRYPTION_KEY: KEY })).toContain("WEBHOOK_SECRET must be set");
    expect(refusal({ NODE_ENV: "production", ENCRYPTION_KEY: KEY, WEBHOOK_SECRET: DEFAULT_WEBHOOK_SECRET })).toContain(
      "WEBHOOK_SECRET",
    );
    const ok = loadConfig({ NODE_ENV: "production", ENCRYPTION_KEY: KEY, WEBHOOK_SECRET: "ours", DATABASE_URL: PG });
    expect(ok.encryptionKeySource).toBe("env");
    expect(ok.encryptionKey.toString("hex")).toBe(KEY);
    expect(ok.warnings).toEqual([]);
  });

  test("a shared database (DATABASE_URL) needs ENCRYPTION_KEY in every mode", () => {
    expect(refusal({ DATABASE_URL: PG })).toContain("ENCRYPTION_KEY is required with DATABASE_URL");
    expect(loadConfig({ DATABASE_URL: PG, ENCRYPTION_KEY: KEY }).encryptionKeySource).toBe("env");
  });

  test("a malformed key is refused", () => {
    expect(refusal({ ENCRYPTION_KEY: "abc" })).toContain("ENCRYPTION_KEY must be 64 hex characters");
  });

  test("outside production the default webhook secret is a start-up warning", () => {
    const config = loadConfig({});
    expect(config.webhookSecret).toBe(DEFAULT_WEBHOOK_SECRET);
    expect(config.warnings.join("\n")).toContain("WEBHOOK_SECRET is the published sandbox value");
    expect(loadConfig({ WEBHOOK_SECRET: "ours" }).warnings).toEqual([]);
  });
});

describe("the PGlite key file", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("made once with mode 0600; the next start reads the same key and opens what the first sealed", () => {
    dir = join(mkdtempSync(join(tmpdir(), "fz-key-")), "data");
    const first = withKeyFile(loadConfig({ PGLITE_DIR: dir, WEBHOOK_SECRET: "ours" }));
    const path = join(dir, KEY_FILE_NAME);
    expect(first.encryptionKeySource).toBe("file");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(first.warnings.join("\n")).toContain("no ENCRYPTION_KEY: made");
    const sealed = sealSecret(first.encryptionKey, "JBSWY3DPEHPK3PXP");
    const second = withKeyFile(loadConfig({ PGLITE_DIR: dir, WEBHOOK_SECRET: "ours" }));
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(second.warnings).toEqual([]);
    expect(openSecret(second.encryptionKey, sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(readFileSync(path, "utf8").trim()).toBe(first.encryptionKey.toString("hex"));
  });

  test("a key file readable by others is narrowed to 0600 with a warning", () => {
    dir = mkdtempSync(join(tmpdir(), "fz-key-"));
    writeFileSync(join(dir, KEY_FILE_NAME), `${KEY}\n`);
    chmodSync(join(dir, KEY_FILE_NAME), 0o644);
    const config = withKeyFile(loadConfig({ PGLITE_DIR: dir }));
    expect(config.encryptionKey.toString("hex")).toBe(KEY);
    expect(statSync(join(dir, KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(config.warnings.join("\n")).toContain("narrowed to 600");
  });

  test("ENCRYPTION_KEY wins over the file; an in-memory or PostgreSQL database makes no file", () => {
    dir = mkdtempSync(join(tmpdir(), "fz-key-"));
    const configured = withKeyFile(loadConfig({ PGLITE_DIR: dir, ENCRYPTION_KEY: KEY }));
    expect(configured.encryptionKeySource).toBe("env");
    expect(() => statSync(join(dir, KEY_FILE_NAME))).toThrow();
    const shared = withKeyFile(loadConfig({ DATABASE_URL: PG, ENCRYPTION_KEY: KEY }));
    expect(shared.encryptionKeySource).toBe("env");
  });

  // Issue 31 item 5: a failed first start left a 0-byte key file that blocked every later start.
  test("an empty key file beside no database is made again; beside a database it still stops the start", () => {
    dir = mkdtempSync(join(tmpdir(), "fz-key-"));
    writeFileSync(join(dir, KEY_FILE_NAME), "", { mode: 0o600 });
    const config = withKeyFile(loadConfig({ PGLITE_DIR: dir }));
    expect(readFileSync(join(dir, KEY_FILE_NAME), "utf8").trim()).toBe(config.encryptionKey.toString("hex"));
    expect(readdirSync(dir)).toEqual([KEY_FILE_NAME]); // no temporary file left beside it
    writeFileSync(join(dir, KEY_FILE_NAME), "");
    writeFileSync(join(dir, "PG_VERSION"), "17\n");
    expect(() => withKeyFile(loadConfig({ PGLITE_DIR: dir }))).toThrow(/is empty; restore it from a backup/);
  });

  test("a first start that fails before any data exists takes back the key it made; a later one keeps it", () => {
    dir = mkdtempSync(join(tmpdir(), "fz-key-"));
    const config = withKeyFile(loadConfig({ PGLITE_DIR: dir }));
    discardUnusedKeyFile(config);
    expect(existsSync(join(dir, KEY_FILE_NAME))).toBe(false);
    const again = withKeyFile(loadConfig({ PGLITE_DIR: dir }));
    writeFileSync(join(dir, "PG_VERSION"), "17\n");
    discardUnusedKeyFile(again);
    expect(readFileSync(join(dir, KEY_FILE_NAME), "utf8").trim()).toBe(again.encryptionKey.toString("hex"));
  });

  test("sealing: a wrong key or an altered value is refused, never read as plaintext", () => {
    const sealed = sealSecret(Buffer.from(KEY, "hex"), "secret");
    expect(sealed).toMatch(/^enc:[0-9a-f]{24}:[0-9a-f]+$/);
    expect(() => openSecret(Buffer.alloc(32, 1), sealed)).toThrow();
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith("00") ? "11" : "00"}`;
    expect(() => openSecret(Buffer.from(KEY, "hex"), altered)).toThrow();
  });
});
