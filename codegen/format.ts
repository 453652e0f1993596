import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cacheKey, cacheRead, cacheWrite, packageSalt } from "./cache.ts";
import type { GeneratedFile } from "./write.ts";

/**
 * The platform's Biome binary directly (the package's `bin/biome` is a Node wrapper that costs a Node start and
 * an `ldd` probe); the wrapper where no such package is installed (Windows, musl).
 */
function biomeCommand(): { command: string; args: string[] } {
  const require = createRequire(import.meta.url);
  try {
    return { command: require.resolve(`@biomejs/cli-${process.platform}-${process.arch}/biome`), args: [] };
  } catch {
    return { command: process.execPath, args: [require.resolve("@biomejs/biome/bin/biome")] };
  }
}

const biome = biomeCommand();

// The house style, given explicitly so the output does not depend on which biome.json is found.
const STYLE = [
  "--indent-style=space",
  "--indent-width=2",
  "--line-width=120",
  "--javascript-formatter-quote-style=double",
  "--trailing-commas=all",
  "--semicolons=always",
  "--use-editorconfig=false",
  "--files-max-size=33554432",
];

/** Runs `biome format --write` on `dir/generated`; asynchronous, so the caller can work meanwhile. */
function biomeFormat(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(biome.command, [...biome.args, "format", "--write", ...STYLE, "generated"], { cwd: dir });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (status) => {
      if (status === 0) resolve();
      else reject(new Error(`codegen: biome format failed:\n${output}`));
    });
  });
}

/** Generated TypeScript under generated/ is formatted; hand-written files (src/) never are. */
function isFormatted(file: GeneratedFile): boolean {
  return file.path.startsWith("generated/") && file.path.endsWith(".ts");
}

/**
 * Formats the generated TypeScript files with Biome, in one run over a scratch directory (outside the
 * project, so no project configuration applies). One process for all files keeps it to a fraction of a second.
 */
export async function formatFiles(files: GeneratedFile[]): Promise<GeneratedFile[]> {
  const formatted = new Map<string, string>();
  const keys = new Map<string, string>();
  const misses: GeneratedFile[] = [];
  for (const file of files.filter(isFormatted)) {
    const key = formatKey(file.content);
    const hit = cacheRead("format", key);
    if (hit === null) {
      misses.push(file);
      keys.set(file.path, key);
    } else formatted.set(file.path, hit);
  }
  if (misses.length > 0) {
    const dir = mkdtempSync(join(tmpdir(), "codegen-format-"));
    try {
      for (const file of misses) {
        mkdirSync(dirname(join(dir, file.path)), { recursive: true });
        writeFileSync(join(dir, file.path), file.content);
      }
      await biomeFormat(dir);
      for (const file of misses) {
        const text = readFileSync(join(dir, file.path), "utf8");
        formatted.set(file.path, text);
        cacheWrite("format", keys.get(file.path)!, text);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return files.map((f) => (formatted.has(f.path) ? { path: f.path, content: formatted.get(f.path)! } : f));
}

let salt: string | null = null;

/** The cache key of a file's text: the text, Biome's version and the style. */
export function formatKey(content: string): string {
  salt ??= `${packageSalt("@biomejs/biome")} ${STYLE.join(" ")}`;
  return cacheKey(salt, content);
}
