import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Config, ConfigError, hexKey } from "../config.ts";

/** The PGlite data directory's encryption key (64 hex characters), readable by the server's user only. */
export const KEY_FILE_NAME = "encryption.key";

/**
 * On embedded PGlite without ENCRYPTION_KEY, secrets are still sealed: the key is made once, kept in the data
 * directory (mode 0600) beside the database it protects, and read at every start, so sealed TOTP seeds and KYC
 * fields survive restarts. A key file whose mode lets others read it is narrowed to 0600 with a warning. Any other
 * configuration (ENCRYPTION_KEY set, in-memory database) is returned unchanged.
 */
export function withKeyFile(config: Config): Config {
  if (config.encryptionKeySource !== "ephemeral" || config.databaseUrl || !config.pgliteDir) return config;
  const path = join(config.pgliteDir, KEY_FILE_NAME);
  const warnings = [...config.warnings];
  let key: Buffer | null;
  try {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(path, 0o600);
      warnings.push(`${path} was readable by others (mode ${mode.toString(8)}); narrowed to 600`);
    }
    key = hexKey(readFileSync(path, "utf8"), path);
    if (!key) throw new ConfigError(path, "is empty; restore it from a backup (sealed secrets need it)");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    mkdirSync(config.pgliteDir, { recursive: true, mode: 0o700 });
    key = randomBytes(32);
    writeFileSync(path, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    warnings.push(`no ENCRYPTION_KEY: made ${path} (mode 600); back it up with the data directory`);
  }
  return { ...config, encryptionKey: key, encryptionKeySource: "file", warnings };
}
