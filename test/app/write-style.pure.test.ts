import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect, test } from "vitest";

/**
 * One way to write state in a call (docs/handler-pattern.md "Apply"): inserts with `em.create`, every change to an
 * existing row a conditional update in a repository function. `em.assign` (a write at the flush, after the
 * decision, unconditional) is not used in src/.
 */

const SRC = resolve(import.meta.dirname, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "migrations" ? [] : files(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

test("no module of src/ changes a loaded row with em.assign", () => {
  const uses = files(SRC).flatMap((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .flatMap((line, i) => (/\bem\.assign\(/.test(line) ? [`${relative(SRC, f)}:${i + 1}`] : [])),
  );
  expect(files(SRC).length).toBeGreaterThan(100);
  expect(uses).toEqual([]);
});
