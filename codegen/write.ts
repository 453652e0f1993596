import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface GeneratedFile {
  /** Path relative to the project root. */
  path: string;
  content: string;
}

export function readIfExists(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Writes the files that changed; returns the paths written. */
export function writeFiles(root: string, files: GeneratedFile[]): string[] {
  const written: string[] = [];
  for (const file of files) {
    const full = join(root, file.path);
    if (readIfExists(full) === file.content) continue;
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, file.content);
    written.push(file.path);
  }
  return written;
}

/** Paths whose committed content differs from what codegen produces. */
export function driftedFiles(root: string, files: GeneratedFile[]): string[] {
  return files.filter((f) => readIfExists(join(root, f.path)) !== f.content).map((f) => f.path);
}
