import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { expect } from "vitest";
import type { GeneratedFile } from "../../codegen/write.ts";

export const REPO_ROOT = join(import.meta.dirname, "..", "..");
export const FIXTURE = join(import.meta.dirname, "fixtures", "mini");
const GOLDEN = join(REPO_ROOT, "test", "golden");

/** A scratch project root holding a copy of the fixture's spec/ (emitters may read and tests may edit it). */
export function copyFixture(): string {
  const root = mkdtempSync(join(tmpdir(), "codegen-fixture-"));
  cpSync(FIXTURE, root, { recursive: true });
  return root;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function readText(root: string, path: string): string {
  return readFileSync(join(root, path), "utf8");
}

export function writeText(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** Edits one JSON file of a scratch root in place. */
export function editJson(root: string, path: string, edit: (json: any) => void): void {
  const json = JSON.parse(readText(root, path));
  edit(json);
  writeText(root, path, `${JSON.stringify(json, null, 2)}\n`);
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)],
    );
  } catch {
    return [];
  }
}

/**
 * Compares an emitter's files with the committed golden copies under test/golden/<emitter>/<path>.golden
 * (the suffix keeps tsc and Biome away from them). `UPDATE_GOLDEN=1` rewrites them instead.
 */
export function expectGolden(emitter: string, files: GeneratedFile[]): void {
  const dir = join(GOLDEN, emitter);
  const expected = new Map(files.map((f) => [join(dir, `${f.path}.golden`), f.content]));
  if (process.env["UPDATE_GOLDEN"] === "1") {
    removeDir(dir);
    for (const [path, content] of expected) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    return;
  }
  const rel = (p: string) => relative(GOLDEN, p);
  expect(listFiles(dir).map(rel).sort(), `golden files of ${emitter}`).toEqual([...expected.keys()].map(rel).sort());
  for (const [path, content] of expected) {
    expect(content, `${rel(path)} differs; UPDATE_GOLDEN=1 npx vitest run test/codegen rewrites it`).toBe(
      readFileSync(path, "utf8"),
    );
  }
}
