import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { Diagnostics, formatDiagnostic } from "../../codegen/diagnostics.ts";
import { checkExtensions, EXTENSIONS, nearMiss, type SpecFileKind } from "../../codegen/extensions.ts";
import { loadSpec } from "../../codegen/load.ts";
import { REPO_ROOT } from "./support.ts";

// The table of known `x-` keys (codegen/extensions.ts) against the committed spec/; the refusals themselves are cases
// of diagnostics.test.ts.
const SPEC = join(REPO_ROOT, "spec");

function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? specFiles(join(dir, e.name)) : e.name.endsWith(".json") ? [join(dir, e.name)] : [],
  );
}

const kindOf = (path: string): SpecFileKind =>
  path.includes("/spec/records/") ? "record" : path.includes("/spec/services/") ? "service" : "other";

describe("strict extensions on the real spec", () => {
  test("every x- key and value in spec/ is known: no diagnostic", () => {
    const diags = new Diagnostics();
    const files = specFiles(SPEC);
    expect(files.length).toBeGreaterThan(100);
    for (const path of files) {
      checkExtensions(JSON.parse(readFileSync(path, "utf8")), kindOf(path), path.slice(REPO_ROOT.length + 1), diags);
    }
    expect(diags.items.map(formatDiagnostic)).toEqual([]);
    // The loader too: every method has its x-auth (missing-auth), every value is known.
    expect(loadSpec(SPEC).diags.items.map(formatDiagnostic)).toEqual([]);
  });

  test("the keys other parts of issue 27 add are registered", () => {
    for (const key of ["x-target", "x-acts-as", "x-spends"]) expect(EXTENSIONS.method[key], key).toBeDefined();
    expect(EXTENSIONS.record["x-company"]).toBeDefined();
  });
});

test("near misses: distance at most 2, case-insensitive, or the same letters", () => {
  expect(nearMiss("x-auht", Object.keys(EXTENSIONS.method))).toBe("x-auth");
  expect(nearMiss("onwer", ["none", "read", "owner", "admin"])).toBe("owner");
  expect(nearMiss("readonly", ["readOnly", "destructive"])).toBe("readOnly");
  expect(nearMiss("x-htuaa", ["x-auth", "x-mcp"])).toBeNull();
  expect(nearMiss("x-htua", ["x-auth", "x-mcp"])).toBe("x-auth");
  expect(nearMiss("x-colour", Object.keys(EXTENSIONS.method))).toBeNull();
});
