import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A content-addressed cache for codegen's pure, costly steps (issue 32 item 4): formatting a generated file with
 * Biome and checking an OpenRPC document against the meta-schema. An entry is keyed by the SHA-256 of what the step
 * reads (the input text, plus a salt naming the tool and its version), so an entry is never stale: a changed input
 * is another key. Entries live under node_modules/.cache/freezone-codegen (as other tools' caches do, gone with a
 * fresh install); `FZ_CODEGEN_CACHE=0` turns the cache off. A damaged entry reads as a miss.
 */

const ROOT = join(import.meta.dirname, "..", "node_modules", ".cache", "freezone-codegen");

const enabled = () => process.env["FZ_CODEGEN_CACHE"] !== "0";

export function cacheKey(salt: string, input: string): string {
  return createHash("sha256").update(salt).update("\0").update(input).digest("hex");
}

export function cacheRead(area: string, key: string): string | null {
  if (!enabled()) return null;
  try {
    return readFileSync(join(ROOT, area, key), "utf8");
  } catch {
    return null;
  }
}

/** Written to a temporary name and renamed: a concurrent reader sees the whole entry or none. */
export function cacheWrite(area: string, key: string, value: string): void {
  if (!enabled()) return;
  try {
    const dir = join(ROOT, area);
    mkdirSync(dir, { recursive: true });
    const temp = join(dir, `${key}.${process.pid}.tmp`);
    writeFileSync(temp, value);
    renameSync(temp, join(dir, key));
  } catch {
    // A read-only or full disk only loses the speed-up.
  }
}

/** A salt from the versions of the packages a step runs (a new version is a new key). */
export function packageSalt(...names: string[]): string {
  const lock = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package-lock.json"), "utf8")) as {
    packages?: Record<string, { version?: string }>;
  };
  return names.map((n) => `${n}@${lock.packages?.[`node_modules/${n}`]?.version ?? "?"}`).join(",");
}
