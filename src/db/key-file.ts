import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Config, ConfigError, hexKey } from "../config.ts";

/** The PGlite data directory's encryption key (64 hex characters), readable by the server's user only. */
export const KEY_FILE_NAME = "encryption.key";

/** Key files this process made, so a first start that fails before any data exists can take its key back. */
const madeHere = new Set<string>();

/**
 * On embedded PGlite without ENCRYPTION_KEY, secrets are still sealed: the key is made once, kept in the data
 * directory (mode 0600) beside the database it protects, and read at every start, so sealed TOTP seeds and KYC
 * fields survive restarts. A key file whose mode lets others read it is narrowed to 0600 with a warning. Any other
 * configuration (ENCRYPTION_KEY set, in-memory database) is returned unchanged.
 *
 * The key is written to a temporary file and renamed into place, so a crash or a full disk never leaves a partial
 * key; an empty key file beside a directory that holds no database yet (an older version's failed first start) is
 * made again, while beside a database it still stops the start (the sealed secrets need the lost key).
 */
export function withKeyFile(config: Config): Config {
  if (config.encryptionKeySource !== "ephemeral" || config.databaseUrl || !config.pgliteDir) return config;
  const path = join(config.pgliteDir, KEY_FILE_NAME);
  const warnings = [...config.warnings];
  let key: Buffer | null = null;
  if (existsSync(path)) {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(path, 0o600);
      warnings.push(`${path} was readable by others (mode ${mode.toString(8)}); narrowed to 600`);
    }
    key = hexKey(readFileSync(path, "utf8"), path);
    if (!key && holdsDatabase(config.pgliteDir)) {
      throw new ConfigError(path, "is empty; restore it from a backup (sealed secrets need it)");
    }
  }
  if (!key) {
    mkdirSync(config.pgliteDir, { recursive: true, mode: 0o700 });
    key = randomBytes(32);
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
      renameSync(temporary, path);
    } finally {
      rmSync(temporary, { force: true });
    }
    madeHere.add(path);
    warnings.push(`no ENCRYPTION_KEY: made ${path} (mode 600); back it up with the data directory`);
  }
  return { ...config, encryptionKey: key, encryptionKeySource: "file", warnings };
}

function holdsDatabase(dir: string): boolean {
  return existsSync(join(dir, "PG_VERSION"));
}

/**
 * After a failed start: removes the key file this process made when the data directory still holds no database,
 * so the next start makes a new one instead of guarding nothing.
 */
export function discardUnusedKeyFile(config: Config): void {
  if (!config.pgliteDir) return;
  const path = join(config.pgliteDir, KEY_FILE_NAME);
  if (madeHere.has(path) && !holdsDatabase(config.pgliteDir)) rmSync(path, { force: true });
}
